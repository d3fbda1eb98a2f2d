package com.fixthis.demo.ui.trails

import androidx.lifecycle.ViewModel
import androidx.lifecycle.viewModelScope
import com.fixthis.demo.data.Difficulty
import com.fixthis.demo.data.Trail
import com.fixthis.demo.data.TrailRepository
import com.fixthis.demo.data.UserProfile
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.SharingStarted
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.combine
import kotlinx.coroutines.flow.stateIn

data class TrailListUiState(
    val user: UserProfile? = null,
    val filter: TrailFilter = TrailFilter.All,
    val trails: List<Trail> = emptyList(),
    val favorites: Set<String> = emptySet(),
)

class TrailsViewModel(private val repository: TrailRepository) : ViewModel() {
    private val filter = MutableStateFlow(TrailFilter.All)

    val listState: StateFlow<TrailListUiState> = combine(
        repository.trails,
        repository.favorites,
        repository.currentUser,
        filter,
    ) { trails, favorites, user, filter ->
        TrailListUiState(
            user = user,
            filter = filter,
            trails = trails.filter { it.matches(filter, favorites, user) },
            favorites = favorites,
        )
    }.stateIn(viewModelScope, SharingStarted.WhileSubscribed(5_000), TrailListUiState())

    val defaultRegion: String
        get() = repository.currentUser.value?.homeRegion.orEmpty()

    fun trail(id: String): Trail? = repository.trail(id)

    fun selectFilter(value: TrailFilter) {
        filter.value = value
    }

    fun toggleFavorite(id: String) = repository.toggleFavorite(id)

    fun delete(id: String) = repository.delete(id)

    fun add(trail: Trail) = repository.add(trail)

    private fun Trail.matches(filter: TrailFilter, favorites: Set<String>, user: UserProfile?): Boolean =
        when (filter) {
            TrailFilter.All -> true
            TrailFilter.Nearby -> user != null && region == user.homeRegion
            TrailFilter.Easy -> difficulty == Difficulty.Easy
            TrailFilter.Saved -> id in favorites
        }
}
