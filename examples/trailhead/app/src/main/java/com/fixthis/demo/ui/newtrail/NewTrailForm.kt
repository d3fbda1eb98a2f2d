package com.fixthis.demo.ui.newtrail

import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.imePadding
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.rememberScrollState
import androidx.compose.foundation.text.KeyboardOptions
import androidx.compose.foundation.verticalScroll
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.filled.Close
import androidx.compose.material3.Button
import androidx.compose.material3.HorizontalDivider
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedTextField
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.saveable.rememberSaveable
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.text.input.KeyboardType
import androidx.compose.ui.unit.dp
import com.fixthis.demo.R
import com.fixthis.demo.core.ui.component.CheckboxRow
import com.fixthis.demo.core.ui.component.SelectableChip
import com.fixthis.demo.core.ui.component.SwitchRow
import com.fixthis.demo.data.Difficulty
import com.fixthis.demo.ui.format.labelRes

/** What the form collects; the caller turns it into a [com.fixthis.demo.data.Trail]. */
data class NewTrailInput(
    val name: String,
    val region: String,
    val distanceKm: Double?,
    val elevationGainM: Int?,
    val difficulty: Difficulty,
    val notes: String,
    val shareWithFriends: Boolean,
    val downloadOfflineMap: Boolean,
)

@Composable
fun NewTrailForm(
    initialRegion: String,
    onClose: () -> Unit,
    onSave: (NewTrailInput) -> Unit,
    modifier: Modifier = Modifier,
) {
    var name by rememberSaveable { mutableStateOf("") }
    var region by rememberSaveable { mutableStateOf(initialRegion) }
    var distance by rememberSaveable { mutableStateOf("") }
    var elevation by rememberSaveable { mutableStateOf("") }
    var difficulty by rememberSaveable { mutableStateOf(Difficulty.Moderate) }
    var notes by rememberSaveable { mutableStateOf("") }
    var share by rememberSaveable { mutableStateOf(true) }
    var offlineMap by rememberSaveable { mutableStateOf(false) }
    var showNameError by rememberSaveable { mutableStateOf(false) }

    Column(modifier = modifier.fillMaxSize()) {
        Row(
            modifier = Modifier
                .fillMaxWidth()
                .height(64.dp)
                .padding(start = 4.dp, end = 12.dp),
            verticalAlignment = Alignment.CenterVertically,
            horizontalArrangement = Arrangement.spacedBy(4.dp),
        ) {
            IconButton(onClick = onClose, modifier = Modifier.testTag("close_button")) {
                Icon(Icons.Filled.Close, contentDescription = "Close")
            }
            Text(
                text = stringResource(R.string.new_trail),
                style = MaterialTheme.typography.titleLarge,
                modifier = Modifier.weight(1f),
            )
            Button(
                onClick = {
                    // Save stays enabled so a tap explains what is missing instead of doing nothing.
                    if (name.isBlank()) {
                        showNameError = true
                    } else {
                        onSave(
                            NewTrailInput(
                                name = name.trim(),
                                region = region.trim(),
                                distanceKm = distance.replace(',', '.').toDoubleOrNull(),
                                elevationGainM = elevation.toIntOrNull(),
                                difficulty = difficulty,
                                notes = notes.trim(),
                                shareWithFriends = share,
                                downloadOfflineMap = offlineMap,
                            ),
                        )
                    }
                },
                modifier = Modifier.testTag("save_button"),
            ) {
                Text(stringResource(R.string.action_save))
            }
        }
        Column(
            modifier = Modifier
                .weight(1f)
                .verticalScroll(rememberScrollState())
                .imePadding()
                .padding(start = 20.dp, top = 12.dp, end = 20.dp, bottom = 16.dp),
            verticalArrangement = Arrangement.spacedBy(16.dp),
        ) {
            OutlinedTextField(
                value = name,
                onValueChange = {
                    name = it
                    showNameError = false
                },
                label = { Text("Trail name") },
                isError = showNameError,
                supportingText = if (showNameError) {
                    { Text("Give the trail a name") }
                } else {
                    null
                },
                singleLine = true,
                modifier = Modifier
                    .fillMaxWidth()
                    .testTag("trail_name_field"),
            )
            OutlinedTextField(
                value = region,
                onValueChange = { region = it },
                label = { Text("Region") },
                singleLine = true,
                modifier = Modifier
                    .fillMaxWidth()
                    .testTag("region_field"),
            )
            Row(horizontalArrangement = Arrangement.spacedBy(12.dp)) {
                OutlinedTextField(
                    value = distance,
                    onValueChange = { distance = it },
                    label = { Text(stringResource(R.string.new_trail_distance_km)) },
                    singleLine = true,
                    keyboardOptions = KeyboardOptions(keyboardType = KeyboardType.Decimal),
                    modifier = Modifier
                        .weight(1f)
                        .testTag("distance_field"),
                )
                OutlinedTextField(
                    value = elevation,
                    onValueChange = { elevation = it },
                    label = { Text(stringResource(R.string.new_trail_elevation_m)) },
                    singleLine = true,
                    keyboardOptions = KeyboardOptions(keyboardType = KeyboardType.Number),
                    modifier = Modifier
                        .weight(1f)
                        .testTag("elevation_field"),
                )
            }
            Text(
                text = "Difficulty",
                style = MaterialTheme.typography.titleSmall,
                color = MaterialTheme.colorScheme.onSurfaceVariant,
            )
            Row(horizontalArrangement = Arrangement.spacedBy(8.dp)) {
                Difficulty.entries.forEach { option ->
                    SelectableChip(
                        label = stringResource(option.labelRes),
                        selected = option == difficulty,
                        onClick = { difficulty = option },
                        modifier = Modifier.testTag("difficulty_${option.name.lowercase()}"),
                    )
                }
            }
            OutlinedTextField(
                value = notes,
                onValueChange = { notes = it },
                label = { Text("Notes") },
                minLines = 3,
                modifier = Modifier
                    .fillMaxWidth()
                    .testTag("notes_field"),
            )
            HorizontalDivider()
            SwitchRow(
                label = stringResource(R.string.new_trail_share_with_friends),
                checked = share,
                onCheckedChange = { share = it },
                modifier = Modifier.testTag("share_switch"),
            )
            CheckboxRow(
                label = "Download offline map",
                checked = offlineMap,
                onCheckedChange = { offlineMap = it },
                modifier = Modifier.testTag("offline_checkbox"),
            )
        }
    }
}
