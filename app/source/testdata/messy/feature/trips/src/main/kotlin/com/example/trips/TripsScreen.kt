package com.example.trips

import androidx.compose.material3.Icon
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.res.stringResource
import com.example.i18n.R as I18nR
import com.example.i18n.R.string

@Composable
fun TripsScreen(trips: List<String>) {
    if (trips.isEmpty()) {
        Text(text = stringResource(I18nR.string.trips_empty))
    }
    Icon(Icons.Default.Delete, contentDescription = stringResource(string.trips_delete))
}
