// A stand-in for androidx.lifecycle's view model and its scope (androidx is not on Maven Central):
// the same binary names, ViewModelKt.getViewModelScope, as the library's. racer models the call by
// name; the body is never run.
package androidx.lifecycle

import kotlinx.coroutines.CoroutineScope

abstract class ViewModel

val ViewModel.viewModelScope: CoroutineScope
    get() = throw UnsupportedOperationException("stand-in")
