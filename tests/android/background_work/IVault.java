package fixtures.android.background_work;

import android.os.Binder;
import android.os.IBinder;
import android.os.IInterface;
import android.os.Parcel;
import android.os.RemoteException;

/**
 * An interface in the shape recent AIDL compilers give `@SensitiveData interface IVault { oneway
 * void store(in byte[] secret); byte[] load(); }`: every transaction also carries
 * FLAG_CLEAR_BUF, so the one-way call's flags are 33 and the two-way call's 32.
 */
public interface IVault extends IInterface {
    void store(byte[] secret) throws RemoteException;

    byte[] load() throws RemoteException;

    abstract class Stub extends Binder implements IVault {
        static final int TRANSACTION_store = IBinder.FIRST_CALL_TRANSACTION;
        static final int TRANSACTION_load = IBinder.FIRST_CALL_TRANSACTION + 1;

        @Override
        public IBinder asBinder() {
            return this;
        }

        private static class Proxy implements IVault {
            private final IBinder mRemote;

            Proxy(IBinder remote) {
                mRemote = remote;
            }

            @Override
            public IBinder asBinder() {
                return mRemote;
            }

            @Override
            public void store(byte[] secret) throws RemoteException {
                Parcel data = Parcel.obtain();
                try {
                    data.writeByteArray(secret);
                    mRemote.transact(TRANSACTION_store, data, null, IBinder.FLAG_ONEWAY | IBinder.FLAG_CLEAR_BUF);
                } finally {
                    data.recycle();
                }
            }

            @Override
            public byte[] load() throws RemoteException {
                Parcel data = Parcel.obtain();
                Parcel reply = Parcel.obtain();
                try {
                    mRemote.transact(TRANSACTION_load, data, reply, IBinder.FLAG_CLEAR_BUF);
                    reply.readException();
                    return reply.createByteArray();
                } finally {
                    reply.recycle();
                    data.recycle();
                }
            }
        }
    }
}
