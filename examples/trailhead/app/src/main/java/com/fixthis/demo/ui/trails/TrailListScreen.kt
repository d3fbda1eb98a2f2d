package com.fixthis.demo.ui.trails

import androidx.annotation.StringRes
import androidx.compose.foundation.background
import androidx.compose.foundation.clickable
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.PaddingValues
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxHeight
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.lazy.LazyColumn
import androidx.compose.foundation.lazy.itemsIndexed
import androidx.compose.foundation.shape.CircleShape
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.filled.Add
import androidx.compose.material.icons.outlined.Search
import androidx.compose.material3.ExtendedFloatingActionButton
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Scaffold
import androidx.compose.material3.Text
import androidx.compose.material3.adaptive.currentWindowAdaptiveInfo
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.saveable.rememberSaveable
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.draw.clip
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.unit.dp
import androidx.lifecycle.compose.collectAsStateWithLifecycle
import androidx.window.core.layout.WindowWidthSizeClass
import com.fixthis.demo.R
import com.fixthis.demo.core.ui.component.SelectableChip
import com.fixthis.demo.data.Trail
import com.fixthis.demo.ui.navigation.TopLevelTab
import com.fixthis.demo.ui.navigation.TrailheadBottomBar
import java.time.LocalTime

enum class TrailFilter(@StringRes val labelRes: Int) {
    All(R.string.filter_all),
    Nearby(R.string.filter_nearby),
    Easy(R.string.filter_easy),
    Saved(R.string.filter_saved),
}

@Composable
fun TrailListScreen(
    viewModel: TrailsViewModel,
    onTrailClick: (Trail) -> Unit,
    onNewTrail: () -> Unit,
    onAccountClick: () -> Unit,
    onTabSelected: (TopLevelTab) -> Unit,
    modifier: Modifier = Modifier,
) {
    val state by viewModel.listState.collectAsStateWithLifecycle()
    // From 600 dp wide (a medium or expanded window: an unfolded foldable, a
    // tablet) the selected trail's detail sits beside the list and a tap on a card
    // selects it there; compact windows show the list alone and a tap opens the
    // detail as its own screen. The selection outlives a size change (saveable).
    val widthClass = currentWindowAdaptiveInfo().windowSizeClass.windowWidthSizeClass
    val twoPane = widthClass != WindowWidthSizeClass.COMPACT
    var selectedId by rememberSaveable { mutableStateOf<String?>(null) }
    val selected = state.trails.firstOrNull { it.id == selectedId } ?: state.trails.firstOrNull()
    val onCardClick: (Trail) -> Unit = { trail -> if (twoPane) selectedId = trail.id else onTrailClick(trail) }
    Row(modifier = modifier.fillMaxSize()) {
        TrailListPane(state, viewModel, onCardClick, onNewTrail, onAccountClick, onTabSelected, Modifier.weight(1f))
        if (twoPane && selected != null) {
            TrailDetailPane(
                trail = selected,
                onSave = { viewModel.toggleFavorite(selected.id) },
                modifier = Modifier.weight(1.25f).fillMaxHeight(),
            )
        }
    }
}

@Composable
private fun TrailListPane(
    state: TrailListUiState,
    viewModel: TrailsViewModel,
    onTrailClick: (Trail) -> Unit,
    onNewTrail: () -> Unit,
    onAccountClick: () -> Unit,
    onTabSelected: (TopLevelTab) -> Unit,
    modifier: Modifier,
) {
    Scaffold(
        modifier = modifier,
        bottomBar = {
            TrailheadBottomBar(selected = TopLevelTab.Explore, onSelect = onTabSelected)
        },
        floatingActionButton = {
            ExtendedFloatingActionButton(
                onClick = onNewTrail,
                icon = { Icon(Icons.Filled.Add, contentDescription = null) },
                text = { Text(stringResource(R.string.new_trail)) },
                modifier = Modifier.testTag("add_trail_fab"),
            )
        },
    ) { padding ->
        Column(
            modifier = Modifier
                .fillMaxSize()
                .padding(padding),
        ) {
            TrailListHeader(
                firstName = state.user?.firstName.orEmpty(),
                onSearchClick = { /* Search opens in a later release. */ },
                onAccountClick = onAccountClick,
            )
            FilterRow(selected = state.filter, onSelect = viewModel::selectFilter)
            LazyColumn(
                modifier = Modifier
                    .weight(1f)
                    .testTag("trail_list"),
                // Bottom padding keeps the last card clear of the FAB.
                contentPadding = PaddingValues(start = 16.dp, top = 4.dp, end = 16.dp, bottom = 96.dp),
                verticalArrangement = Arrangement.spacedBy(12.dp),
            ) {
                itemsIndexed(state.trails, key = { _, trail -> trail.id }) { index, trail ->
                    TrailCard(
                        trail = trail,
                        position = index,
                        isFavorite = trail.id in state.favorites,
                        onClick = { onTrailClick(trail) },
                        onFavoriteChange = { viewModel.toggleFavorite(trail.id) },
                    )
                }
            }
        }
    }
}

@Composable
private fun TrailListHeader(
    firstName: String,
    onSearchClick: () -> Unit,
    onAccountClick: () -> Unit,
) {
    Row(
        modifier = Modifier
            .fillMaxWidth()
            .height(72.dp)
            .padding(start = 20.dp, end = 12.dp),
        verticalAlignment = Alignment.CenterVertically,
        horizontalArrangement = Arrangement.spacedBy(4.dp),
    ) {
        Column(modifier = Modifier.weight(1f), verticalArrangement = Arrangement.spacedBy(2.dp)) {
            // Known flaw, kept on purpose (see README, "Accessibility flaws"): a
            // hard-coded light grey reads at about 2.9:1 on the surface, under the
            // 4.5:1 body text needs. `fixthis audit` reports it as text_contrast.
            Text(
                text = stringResource(greetingFor(LocalTime.now()), firstName),
                style = MaterialTheme.typography.labelLarge,
                color = Color(0xFF949494),
            )
            Text(
                text = "Find your next trail",
                style = MaterialTheme.typography.headlineSmall,
                modifier = Modifier.testTag("screen_title"),
            )
        }
        // Known flaw, kept on purpose: squeezed to 36 dp to fit the header, so the
        // touch target is under the 48 dp minimum (touch_target, 36×36 dp).
        IconButton(onClick = onSearchClick, modifier = Modifier.size(36.dp).testTag("search_button")) {
            Icon(Icons.Outlined.Search, contentDescription = stringResource(R.string.search_trails))
        }
        // Known flaw, kept on purpose: a 40 dp clickable avatar with no minimum
        // touch size around it (touch_target, 40×40 dp).
        Box(
            modifier = Modifier
                .size(40.dp)
                .clip(CircleShape)
                .background(MaterialTheme.colorScheme.tertiaryContainer)
                .clickable(onClick = onAccountClick)
                .semantics { contentDescription = "Account" }
                .testTag("account_avatar"),
            contentAlignment = Alignment.Center,
        ) {
            Text(
                text = firstName.take(1).uppercase(),
                style = MaterialTheme.typography.titleMedium,
                color = MaterialTheme.colorScheme.onTertiaryContainer,
            )
        }
    }
}

@Composable
private fun FilterRow(selected: TrailFilter, onSelect: (TrailFilter) -> Unit) {
    Row(
        modifier = Modifier
            .fillMaxWidth()
            .padding(start = 20.dp, top = 8.dp, end = 20.dp, bottom = 12.dp),
        horizontalArrangement = Arrangement.spacedBy(8.dp),
    ) {
        TrailFilter.entries.forEach { filter ->
            SelectableChip(
                label = stringResource(filter.labelRes),
                selected = filter == selected,
                onClick = { onSelect(filter) },
                modifier = Modifier.testTag("filter_${filter.name.lowercase()}"),
            )
        }
    }
}

@StringRes
private fun greetingFor(time: LocalTime): Int = when (time.hour) {
    in 5..11 -> R.string.greeting_morning
    in 12..17 -> R.string.greeting_afternoon
    else -> R.string.greeting_evening
}
