// A stand-in for androidx.lifecycle's lifecycle and its scope (LifecycleKt.getCoroutineScope).
package androidx.lifecycle

import kotlinx.coroutines.CoroutineScope

abstract class Lifecycle

val Lifecycle.coroutineScope: CoroutineScope
    get() = throw UnsupportedOperationException("stand-in")
