package com.fixthis.demo.ui.trails

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.filled.Favorite
import androidx.compose.material.icons.outlined.FavoriteBorder
import androidx.compose.material.icons.outlined.Place
import androidx.compose.material3.Card
import androidx.compose.material3.CardDefaults
import androidx.compose.material3.Icon
import androidx.compose.material3.IconToggleButton
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.draw.clip
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.text.style.TextOverflow
import androidx.compose.ui.tooling.preview.Preview
import androidx.compose.ui.unit.dp
import com.fixthis.demo.R
import com.fixthis.demo.core.ui.component.TrailPhoto
import com.fixthis.demo.core.ui.theme.TrailheadTheme
import com.fixthis.demo.data.SampleData
import com.fixthis.demo.data.Trail
import com.fixthis.demo.ui.format.formatDistance
import com.fixthis.demo.ui.format.formatElevation
import com.fixthis.demo.ui.format.labelRes

/**
 * One trail in the list: photo, name, region, difficulty and distance, and a
 * heart to save it. [position] is the card's place in the list; the tags built
 * from it let UI tests address "the first card" without knowing the data.
 */
@Composable
fun TrailCard(
    trail: Trail,
    position: Int,
    isFavorite: Boolean,
    onClick: () -> Unit,
    onFavoriteChange: (Boolean) -> Unit,
    modifier: Modifier = Modifier,
) {
    Card(
        onClick = onClick,
        modifier = modifier
            .fillMaxWidth()
            .testTag("trail_card_$position"),
        colors = CardDefaults.cardColors(containerColor = MaterialTheme.colorScheme.surfaceContainerLow),
    ) {
        Row(
            modifier = Modifier.padding(12.dp),
            horizontalArrangement = Arrangement.spacedBy(16.dp),
            verticalAlignment = Alignment.CenterVertically,
        ) {
            TrailPhoto(
                url = trail.photoUrl,
                contentDescription = null, // the name next to it says what it shows
                modifier = Modifier
                    .size(92.dp)
                    .clip(RoundedCornerShape(12.dp)),
            )
            Column(
                modifier = Modifier.weight(1f),
                verticalArrangement = Arrangement.spacedBy(4.dp),
            ) {
                Text(
                    text = trail.name,
                    style = MaterialTheme.typography.titleMedium,
                    maxLines = 1,
                    overflow = TextOverflow.Ellipsis,
                )
                Row(
                    verticalAlignment = Alignment.CenterVertically,
                    horizontalArrangement = Arrangement.spacedBy(4.dp),
                ) {
                    Icon(Icons.Outlined.Place, contentDescription = null, modifier = Modifier.size(16.dp))
                    Text(
                        text = trail.region,
                        style = MaterialTheme.typography.bodyMedium,
                        color = MaterialTheme.colorScheme.onSurfaceVariant,
                        maxLines = 1,
                        overflow = TextOverflow.Ellipsis,
                    )
                }
                Row(
                    modifier = Modifier.padding(top = 4.dp),
                    verticalAlignment = Alignment.CenterVertically,
                    horizontalArrangement = Arrangement.spacedBy(8.dp),
                ) {
                    DifficultyBadge(text = stringResource(trail.difficulty.labelRes))
                    Text(
                        text = stringResource(
                            R.string.trail_card_stats,
                            formatDistance(trail.distanceKm),
                            formatElevation(trail.elevationGainM),
                        ),
                        style = MaterialTheme.typography.bodySmall,
                        color = MaterialTheme.colorScheme.onSurfaceVariant,
                    )
                }
            }
            IconToggleButton(
                checked = isFavorite,
                onCheckedChange = onFavoriteChange,
                modifier = Modifier.testTag("favorite_$position"),
            ) {
                Icon(
                    imageVector = if (isFavorite) Icons.Filled.Favorite else Icons.Outlined.FavoriteBorder,
                    contentDescription = "Save ${trail.name}",
                )
            }
        }
    }
}

@Composable
private fun DifficultyBadge(text: String) {
    Box(
        modifier = Modifier
            .background(MaterialTheme.colorScheme.secondaryContainer, RoundedCornerShape(8.dp))
            .padding(horizontal = 8.dp, vertical = 2.dp),
    ) {
        Text(
            text = text,
            style = MaterialTheme.typography.labelMedium,
            color = MaterialTheme.colorScheme.onSecondaryContainer,
        )
    }
}

@Preview
@Composable
private fun TrailCardPreview() {
    TrailheadTheme {
        TrailCard(
            trail = SampleData.trails.first(),
            position = 0,
            isFavorite = false,
            onClick = {},
            onFavoriteChange = {},
        )
    }
}
