// A stand-in for androidx.lifecycle's lifecycle owner and its scope (LifecycleOwnerKt.getLifecycleScope).
package androidx.lifecycle

import kotlinx.coroutines.CoroutineScope

interface LifecycleOwner

val LifecycleOwner.lifecycleScope: CoroutineScope
    get() = throw UnsupportedOperationException("stand-in")
