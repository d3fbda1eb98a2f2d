package com.fixthis.demo.ui.format

import androidx.annotation.StringRes
import androidx.compose.runtime.Composable
import androidx.compose.runtime.ReadOnlyComposable
import androidx.compose.ui.res.stringResource
import com.fixthis.demo.R
import com.fixthis.demo.data.Difficulty
import java.util.Locale

// Display formatting for trail numbers, shared by the list and the detail
// screen so a card and its detail page never disagree.

@Composable
@ReadOnlyComposable
fun formatDistance(km: Double): String =
    stringResource(R.string.format_distance_km, String.format(Locale.getDefault(), "%.1f", km))

@Composable
@ReadOnlyComposable
fun formatElevation(meters: Int): String = stringResource(R.string.format_elevation_gain_m, meters)

@Composable
@ReadOnlyComposable
fun formatDuration(minutes: Int): String {
    val hours = minutes / 60
    val rest = minutes % 60
    return when {
        hours == 0 -> stringResource(R.string.format_duration_min, rest)
        rest == 0 -> stringResource(R.string.format_duration_h, hours)
        else -> stringResource(R.string.format_duration_h_min, hours, rest)
    }
}

fun formatRating(rating: Double): String = String.format(Locale.getDefault(), "%.1f", rating)

@get:StringRes
val Difficulty.labelRes: Int
    get() = when (this) {
        Difficulty.Easy -> R.string.difficulty_easy
        Difficulty.Moderate -> R.string.difficulty_moderate
        Difficulty.Hard -> R.string.difficulty_hard
    }
