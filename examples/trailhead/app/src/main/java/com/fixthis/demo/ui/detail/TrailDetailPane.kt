package com.fixthis.demo.ui.detail

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.Spacer
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.statusBarsPadding
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.outlined.FavoriteBorder
import androidx.compose.material3.Button
import androidx.compose.material3.Icon
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedButton
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.draw.clip
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.unit.dp
import com.fixthis.demo.R
import com.fixthis.demo.core.ui.component.TrailPhoto
import com.fixthis.demo.data.Trail
import com.fixthis.demo.ui.format.formatDistance
import com.fixthis.demo.ui.format.formatDuration
import com.fixthis.demo.ui.format.formatElevation

/**
 * The selected trail beside the list in a medium or expanded window: the photo,
 * the title row the detail screen uses, the figures on one line, the description
 * and the two actions.
 */
@Composable
fun TrailDetailPane(trail: Trail, onSave: () -> Unit, modifier: Modifier = Modifier) {
    Column(
        modifier = modifier
            .background(MaterialTheme.colorScheme.surfaceContainerLow)
            .statusBarsPadding()
            .padding(start = 16.dp, top = 16.dp, end = 24.dp, bottom = 16.dp)
            .testTag("detail_pane"),
        verticalArrangement = Arrangement.spacedBy(12.dp),
    ) {
        TrailPhoto(
            url = trail.photoUrl,
            contentDescription = "Photo of ${trail.name}",
            modifier = Modifier.fillMaxWidth().height(220.dp).clip(RoundedCornerShape(20.dp)),
        )
        TitleRow(trail, titleTag = "pane_trail_title")
        Text(
            text = "${formatDistance(trail.distanceKm)} · ${formatElevation(trail.elevationGainM)} · ${formatDuration(trail.durationMinutes)}",
            style = MaterialTheme.typography.titleMedium,
        )
        Text(
            text = trail.description,
            style = MaterialTheme.typography.bodyLarge,
            color = MaterialTheme.colorScheme.onSurfaceVariant,
        )
        Spacer(modifier = Modifier.weight(1f))
        Row(modifier = Modifier.fillMaxWidth(), horizontalArrangement = Arrangement.spacedBy(12.dp)) {
            OutlinedButton(onClick = onSave, modifier = Modifier.weight(1f).height(48.dp).testTag("pane_save_button")) {
                Icon(Icons.Outlined.FavoriteBorder, contentDescription = null)
                Text("Save")
            }
            Button(onClick = { /* Hike tracking opens in a later release. */ }, modifier = Modifier.weight(1f).height(48.dp).testTag("pane_start_button")) {
                Text(stringResource(R.string.start_hike))
            }
        }
    }
}
