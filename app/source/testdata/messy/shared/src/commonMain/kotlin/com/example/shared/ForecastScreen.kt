package com.example.shared

import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import hikelog.shared.generated.resources.Res
import hikelog.shared.generated.resources.forecast_days
import hikelog.shared.generated.resources.forecast_title
import org.jetbrains.compose.resources.pluralStringResource
import org.jetbrains.compose.resources.stringResource

@Composable
fun ForecastScreen(sunny: Int) {
    Text(stringResource(Res.string.forecast_title))
    Text(pluralStringResource(Res.plurals.forecast_days, sunny, sunny))
}
