package fixtures.android.background_work;

import android.os.Binder;
import android.os.IBinder;
import android.os.IInterface;
import android.os.RemoteException;

/** An interface in the shape the AIDL compiler gives one: an IInterface with its Binder stub. */
public interface ICounter extends IInterface {
    int increment() throws RemoteException;

    int current() throws RemoteException;

    void record(int[] samples) throws RemoteException;

    abstract class Stub extends Binder implements ICounter {
        @Override
        public IBinder asBinder() {
            return this;
        }
    }
}
