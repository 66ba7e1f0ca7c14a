package kfixtures.upstream_providers.common

import dagger.Module
import dagger.Provides
import javax.inject.Named
import javax.inject.Qualifier
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers

// A common module of a multi-module application: the qualifiers of its dispatchers and the
// Dagger module providing them. The feature module below injects them.
@Qualifier
@Retention(AnnotationRetention.BINARY)
annotation class IoDispatcher

// Declared, provided nowhere.
@Qualifier
@Retention(AnnotationRetention.BINARY)
annotation class DefaultDispatcher

// Every provider gives Dispatchers.IO, and kotlinc marks every one @NotNull, as it marks the
// parameters: a nullness annotation is not a qualifier.
@Module
object DispatchersModule {
    @IoDispatcher
    @Provides
    fun providesIoDispatcher(): CoroutineDispatcher = Dispatchers.IO

    @Named("io")
    @Provides
    fun providesNamedIoDispatcher(): CoroutineDispatcher = Dispatchers.IO
}
