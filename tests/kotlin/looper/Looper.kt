package kfixtures.looper

import android.os.Looper

/** Racy: Kotlin's `==` on the loopers calls Intrinsics.areEqual, a main-thread check too. */
class HelperCheck {
    private var value = 0

    private fun onMainThread(): Boolean = Looper.myLooper() == Looper.getMainLooper()

    fun set(v: Int) {
        if (onMainThread()) return
        value = v // expect: HelperCheck set this.value
    }
}

/** Safe: the write comes after a passed check (the other branch throws). */
class CheckedWrite {
    private var value = 0

    fun set(v: Int) {
        if (Looper.myLooper() != Looper.getMainLooper()) throw IllegalStateException("main thread only")
        value = v
    }

    fun reset() {
        check(Looper.getMainLooper() == Looper.myLooper())
        value = 0
    }
}
