package com.fixthis.demo.ui.detail

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.Spacer
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.navigationBarsPadding
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.layout.statusBarsPadding
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.filled.Star
import androidx.compose.material.icons.outlined.Delete
import androidx.compose.material.icons.outlined.FavoriteBorder
import androidx.compose.material.icons.outlined.Place
import androidx.compose.material.icons.outlined.Route
import androidx.compose.material.icons.outlined.Schedule
import androidx.compose.material.icons.outlined.Share
import androidx.compose.material.icons.outlined.Terrain
import androidx.compose.material3.Button
import androidx.compose.material3.ButtonDefaults
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.IconButtonDefaults
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedButton
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.saveable.rememberSaveable
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.vector.ImageVector
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.unit.dp
import com.fixthis.demo.R
import com.fixthis.demo.core.ui.component.BackButton
import com.fixthis.demo.core.ui.component.SelectableChip
import com.fixthis.demo.core.ui.component.TrailPhoto
import com.fixthis.demo.data.Trail
import com.fixthis.demo.ui.format.formatDistance
import com.fixthis.demo.ui.format.formatDuration
import com.fixthis.demo.ui.format.formatElevation
import com.fixthis.demo.ui.format.formatRating
import com.fixthis.demo.ui.format.labelRes

@Composable
fun TrailDetailScreen(
    trail: Trail,
    onBack: () -> Unit,
    onShare: () -> Unit,
    onDelete: () -> Unit,
    onSave: () -> Unit,
    onStartHike: () -> Unit,
    modifier: Modifier = Modifier,
) {
    var confirmDelete by rememberSaveable { mutableStateOf(false) }

    Column(modifier = modifier.fillMaxSize()) {
        Box(
            modifier = Modifier
                .fillMaxWidth()
                .height(280.dp),
        ) {
            TrailPhoto(
                url = trail.photoUrl,
                contentDescription = "Photo of ${trail.name}",
                modifier = Modifier.fillMaxSize(),
            )
            PhotoActions(
                onBack = onBack,
                onShare = onShare,
                onDelete = { confirmDelete = true },
            )
        }
        Column(
            modifier = Modifier
                .weight(1f)
                .fillMaxWidth()
                .navigationBarsPadding()
                .padding(start = 20.dp, top = 20.dp, end = 20.dp, bottom = 16.dp),
            verticalArrangement = Arrangement.spacedBy(12.dp),
        ) {
            TitleRow(trail)
            Row(
                modifier = Modifier.padding(vertical = 8.dp),
                horizontalArrangement = Arrangement.spacedBy(12.dp),
            ) {
                StatTile(
                    icon = Icons.Outlined.Route,
                    value = formatDistance(trail.distanceKm),
                    label = stringResource(R.string.stat_distance),
                    modifier = Modifier.weight(1f),
                )
                StatTile(
                    icon = Icons.Outlined.Terrain,
                    value = formatElevation(trail.elevationGainM),
                    label = stringResource(R.string.stat_elevation),
                    modifier = Modifier.weight(1f),
                )
                StatTile(
                    icon = Icons.Outlined.Schedule,
                    value = formatDuration(trail.durationMinutes),
                    label = stringResource(R.string.stat_duration),
                    modifier = Modifier.weight(1f),
                )
            }
            Text(text = "About this trail", style = MaterialTheme.typography.titleMedium)
            Text(
                text = trail.description,
                style = MaterialTheme.typography.bodyLarge,
                color = MaterialTheme.colorScheme.onSurfaceVariant,
            )
            Row(
                modifier = Modifier.padding(top = 4.dp),
                horizontalArrangement = Arrangement.spacedBy(8.dp),
            ) {
                // Facts about the trail, not filters: tapping them does nothing.
                SelectableChip(label = stringResource(trail.difficulty.labelRes), selected = true, onClick = {})
                if (trail.dogsAllowed) {
                    SelectableChip(label = stringResource(R.string.detail_dogs_allowed), selected = false, onClick = {})
                }
                if (trail.isLoop) {
                    SelectableChip(label = "Loop", selected = false, onClick = {})
                }
            }
            Spacer(modifier = Modifier.weight(1f))
            Row(horizontalArrangement = Arrangement.spacedBy(12.dp)) {
                OutlinedButton(
                    onClick = onSave,
                    modifier = Modifier
                        .weight(1f)
                        .height(48.dp)
                        .testTag("save_trail_button"),
                ) {
                    Icon(
                        Icons.Outlined.FavoriteBorder,
                        contentDescription = null,
                        modifier = Modifier.size(ButtonDefaults.IconSize),
                    )
                    Spacer(Modifier.size(ButtonDefaults.IconSpacing))
                    Text("Save")
                }
                Button(
                    onClick = onStartHike,
                    modifier = Modifier
                        .weight(1f)
                        .height(48.dp)
                        .testTag("start_hike_button"),
                ) {
                    Text(stringResource(R.string.start_hike))
                }
            }
        }
    }

    if (confirmDelete) {
        DeleteTrailDialog(
            trailName = trail.name,
            onConfirm = {
                confirmDelete = false
                onDelete()
            },
            onDismiss = { confirmDelete = false },
        )
    }
}

/** Back, share and delete, floating over the photo on translucent circles. */
@Composable
private fun PhotoActions(onBack: () -> Unit, onShare: () -> Unit, onDelete: () -> Unit) {
    val backing = MaterialTheme.colorScheme.surface.copy(alpha = 0.9f)
    val colors = IconButtonDefaults.iconButtonColors(
        containerColor = backing,
        contentColor = MaterialTheme.colorScheme.onSurface,
    )
    Row(
        modifier = Modifier
            .fillMaxWidth()
            .statusBarsPadding()
            .padding(start = 8.dp, top = 8.dp, end = 8.dp),
        horizontalArrangement = Arrangement.spacedBy(8.dp),
    ) {
        BackButton(onClick = onBack, containerColor = backing)
        Spacer(modifier = Modifier.weight(1f))
        // Known flaw, kept on purpose: the share button has no label, so a screen
        // reader announces only "button" (speakable_text).
        IconButton(onClick = onShare, colors = colors, modifier = Modifier.testTag("share_button")) {
            Icon(Icons.Outlined.Share, contentDescription = null)
        }
        IconButton(onClick = onDelete, colors = colors, modifier = Modifier.testTag("delete_button")) {
            Icon(Icons.Outlined.Delete, contentDescription = stringResource(R.string.delete_trail))
        }
    }
}

/** The trail's name, region and rating; the list-detail pane shows it too, under its own tag. */
@Composable
internal fun TitleRow(trail: Trail, titleTag: String = "trail_title") {
    Row(
        modifier = Modifier.fillMaxWidth(),
        horizontalArrangement = Arrangement.spacedBy(8.dp),
        verticalAlignment = Alignment.CenterVertically,
    ) {
        Column(modifier = Modifier.weight(1f), verticalArrangement = Arrangement.spacedBy(4.dp)) {
            Text(
                text = trail.name,
                style = MaterialTheme.typography.headlineSmall,
                modifier = Modifier.testTag(titleTag),
            )
            Row(verticalAlignment = Alignment.CenterVertically, horizontalArrangement = Arrangement.spacedBy(4.dp)) {
                Icon(Icons.Outlined.Place, contentDescription = null, modifier = Modifier.size(18.dp))
                Text(
                    text = trail.region,
                    style = MaterialTheme.typography.bodyLarge,
                    color = MaterialTheme.colorScheme.onSurfaceVariant,
                )
            }
        }
        Row(
            modifier = Modifier
                .background(MaterialTheme.colorScheme.tertiaryContainer, RoundedCornerShape(12.dp))
                .padding(start = 10.dp, top = 6.dp, end = 12.dp, bottom = 6.dp),
            verticalAlignment = Alignment.CenterVertically,
            horizontalArrangement = Arrangement.spacedBy(4.dp),
        ) {
            Icon(
                Icons.Filled.Star,
                contentDescription = null,
                tint = MaterialTheme.colorScheme.onTertiaryContainer,
                modifier = Modifier.size(18.dp),
            )
            Text(
                text = formatRating(trail.rating),
                style = MaterialTheme.typography.labelLarge,
                color = MaterialTheme.colorScheme.onTertiaryContainer,
            )
        }
    }
}

@Composable
private fun StatTile(icon: ImageVector, value: String, label: String, modifier: Modifier = Modifier) {
    Column(
        modifier = modifier
            .background(MaterialTheme.colorScheme.surfaceContainerLow, RoundedCornerShape(16.dp))
            .padding(14.dp),
        verticalArrangement = Arrangement.spacedBy(6.dp),
    ) {
        Icon(icon, contentDescription = null, tint = MaterialTheme.colorScheme.primary, modifier = Modifier.size(20.dp))
        Text(text = value, style = MaterialTheme.typography.titleMedium, maxLines = 1)
        Text(
            text = label,
            style = MaterialTheme.typography.labelMedium,
            color = MaterialTheme.colorScheme.onSurfaceVariant,
        )
    }
}
