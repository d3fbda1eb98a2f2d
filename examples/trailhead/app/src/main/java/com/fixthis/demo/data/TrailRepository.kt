package com.fixthis.demo.data

import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.flow.update

interface TrailRepository {
    val trails: StateFlow<List<Trail>>
    val favorites: StateFlow<Set<String>>
    val currentUser: StateFlow<UserProfile?>

    fun trail(id: String): Trail?
    fun add(trail: Trail)
    fun delete(id: String)
    fun toggleFavorite(id: String)
}

/**
 * Keeps trails in memory, seeded with the bundled sample trails. The sync
 * backend is not wired up yet, so this is what every build uses.
 */
class InMemoryTrailRepository(
    initialTrails: List<Trail> = SampleData.trails,
    user: UserProfile? = SampleData.user,
) : TrailRepository {
    private val _trails = MutableStateFlow(initialTrails)
    private val _favorites = MutableStateFlow(emptySet<String>())
    private val _currentUser = MutableStateFlow(user)

    override val trails: StateFlow<List<Trail>> = _trails.asStateFlow()
    override val favorites: StateFlow<Set<String>> = _favorites.asStateFlow()
    override val currentUser: StateFlow<UserProfile?> = _currentUser.asStateFlow()

    override fun trail(id: String): Trail? = _trails.value.firstOrNull { it.id == id }

    override fun add(trail: Trail) {
        _trails.update { listOf(trail) + it }
    }

    override fun delete(id: String) {
        _trails.update { list -> list.filterNot { it.id == id } }
        _favorites.update { it - id }
    }

    override fun toggleFavorite(id: String) {
        _favorites.update { if (id in it) it - id else it + id }
    }
}
