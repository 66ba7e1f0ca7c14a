package fixtures.android.background_work;

/**
 * Racy: `store` is one-way (its flags carry FLAG_CLEAR_BUF too), served one call at a time, so
 * its count is safe; `load` is two-way (FLAG_CLEAR_BUF alone), and its read of the secret races
 * with `store`'s write.
 */
public class VaultBinder extends IVault.Stub {
    private byte[] mSecret;
    private int mStores;

    @Override
    public void store(byte[] secret) {
        mSecret = secret;
        mStores++;
    }

    @Override
    public byte[] load() {
        return mSecret;
    }
}
