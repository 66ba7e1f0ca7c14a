package kfixtures.collection_functions

/** An inline function of the code's own: kotlinc copies its body into every caller. */
@Suppress("NOTHING_TO_INLINE")
inline fun addTwice(items: MutableList<String>, item: String) {
    items.add(item)
    items.add(item)
}
