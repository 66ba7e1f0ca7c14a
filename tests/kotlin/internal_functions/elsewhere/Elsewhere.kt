package kfixtures.internal_functions.elsewhere

import kfixtures.internal_functions.Gate

// A caller of the module in another package: internal functions are the module's, not the
// package's, so its call without the lock counts too.
class Peeker(private val gate: Gate) {
    fun poke() {
        gate.bump()
    }
}
