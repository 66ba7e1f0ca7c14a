/*
 * This file is auto-generated.  DO NOT MODIFY.
 */
package fixtures.android.background_work;
public interface IProgressListener extends android.os.IInterface
{
  /** Default implementation for IProgressListener. */
  public static class Default implements fixtures.android.background_work.IProgressListener
  {
    @Override public void onProgress(int percent) throws android.os.RemoteException
    {
    }
    @Override public void onDone() throws android.os.RemoteException
    {
    }
    @Override
    public android.os.IBinder asBinder() {
      return null;
    }
  }
  /** Local-side IPC implementation stub class. */
  public static abstract class Stub extends android.os.Binder implements fixtures.android.background_work.IProgressListener
  {
    private static final java.lang.String DESCRIPTOR = "fixtures.android.background_work.IProgressListener";
    /** Construct the stub at attach it to the interface. */
    public Stub()
    {
      this.attachInterface(this, DESCRIPTOR);
    }
    /**
     * Cast an IBinder object into an fixtures.android.background_work.IProgressListener interface,
     * generating a proxy if needed.
     */
    public static fixtures.android.background_work.IProgressListener asInterface(android.os.IBinder obj)
    {
      if ((obj==null)) {
        return null;
      }
      android.os.IInterface iin = obj.queryLocalInterface(DESCRIPTOR);
      if (((iin!=null)&&(iin instanceof fixtures.android.background_work.IProgressListener))) {
        return ((fixtures.android.background_work.IProgressListener)iin);
      }
      return new fixtures.android.background_work.IProgressListener.Stub.Proxy(obj);
    }
    @Override public android.os.IBinder asBinder()
    {
      return this;
    }
    @Override public boolean onTransact(int code, android.os.Parcel data, android.os.Parcel reply, int flags) throws android.os.RemoteException
    {
      java.lang.String descriptor = DESCRIPTOR;
      switch (code)
      {
        case INTERFACE_TRANSACTION:
        {
          reply.writeString(descriptor);
          return true;
        }
        case TRANSACTION_onProgress:
        {
          data.enforceInterface(descriptor);
          int _arg0;
          _arg0 = data.readInt();
          this.onProgress(_arg0);
          return true;
        }
        case TRANSACTION_onDone:
        {
          data.enforceInterface(descriptor);
          this.onDone();
          return true;
        }
        default:
        {
          return super.onTransact(code, data, reply, flags);
        }
      }
    }
    private static class Proxy implements fixtures.android.background_work.IProgressListener
    {
      private android.os.IBinder mRemote;
      Proxy(android.os.IBinder remote)
      {
        mRemote = remote;
      }
      @Override public android.os.IBinder asBinder()
      {
        return mRemote;
      }
      public java.lang.String getInterfaceDescriptor()
      {
        return DESCRIPTOR;
      }
      @Override public void onProgress(int percent) throws android.os.RemoteException
      {
        android.os.Parcel _data = android.os.Parcel.obtain();
        try {
          _data.writeInterfaceToken(DESCRIPTOR);
          _data.writeInt(percent);
          boolean _status = mRemote.transact(Stub.TRANSACTION_onProgress, _data, null, android.os.IBinder.FLAG_ONEWAY);
          if (!_status && getDefaultImpl() != null) {
            getDefaultImpl().onProgress(percent);
            return;
          }
        }
        finally {
          _data.recycle();
        }
      }
      @Override public void onDone() throws android.os.RemoteException
      {
        android.os.Parcel _data = android.os.Parcel.obtain();
        try {
          _data.writeInterfaceToken(DESCRIPTOR);
          boolean _status = mRemote.transact(Stub.TRANSACTION_onDone, _data, null, android.os.IBinder.FLAG_ONEWAY);
          if (!_status && getDefaultImpl() != null) {
            getDefaultImpl().onDone();
            return;
          }
        }
        finally {
          _data.recycle();
        }
      }
      public static fixtures.android.background_work.IProgressListener sDefaultImpl;
    }
    static final int TRANSACTION_onProgress = (android.os.IBinder.FIRST_CALL_TRANSACTION + 0);
    static final int TRANSACTION_onDone = (android.os.IBinder.FIRST_CALL_TRANSACTION + 1);
    public static boolean setDefaultImpl(fixtures.android.background_work.IProgressListener impl) {
      if (Stub.Proxy.sDefaultImpl == null && impl != null) {
        Stub.Proxy.sDefaultImpl = impl;
        return true;
      }
      return false;
    }
    public static fixtures.android.background_work.IProgressListener getDefaultImpl() {
      return Stub.Proxy.sDefaultImpl;
    }
  }
  public void onProgress(int percent) throws android.os.RemoteException;
  public void onDone() throws android.os.RemoteException;
}
