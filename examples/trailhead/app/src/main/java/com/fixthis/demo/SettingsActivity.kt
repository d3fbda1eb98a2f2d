package com.fixthis.demo

import android.content.SharedPreferences
import android.os.Bundle
import android.view.View
import android.widget.TextView
import androidx.activity.enableEdgeToEdge
import androidx.annotation.IdRes
import androidx.annotation.StringRes
import androidx.appcompat.app.AlertDialog
import androidx.appcompat.app.AppCompatActivity
import androidx.core.content.edit
import androidx.core.view.ViewCompat
import androidx.core.view.WindowInsetsCompat
import androidx.core.view.updatePadding
import com.google.android.material.materialswitch.MaterialSwitch

/**
 * App settings. Still a classic View screen: it predates the Compose rewrite
 * and only reads and writes preferences, so it has not been worth porting.
 */
class SettingsActivity : AppCompatActivity() {

    private val prefs: SharedPreferences by lazy { getSharedPreferences(PREFS_NAME, MODE_PRIVATE) }

    override fun onCreate(savedInstanceState: Bundle?) {
        enableEdgeToEdge()
        super.onCreate(savedInstanceState)
        setContentView(R.layout.activity_settings)

        val root = findViewById<View>(R.id.settings_root)
        ViewCompat.setOnApplyWindowInsetsListener(root) { view, insets ->
            val bars = insets.getInsets(WindowInsetsCompat.Type.systemBars())
            view.updatePadding(top = bars.top, bottom = bars.bottom)
            insets
        }

        bindUnits()
        bindLanguage()
        bindSwitch(R.id.offline_switch, KEY_WIFI_ONLY, default = true)
        bindSwitch(R.id.notifications_switch, KEY_WEATHER_ALERTS, default = false)
        bindSwitch(R.id.dark_switch, KEY_DARK_MAP, default = false)

        findViewById<TextView>(R.id.about_version).text =
            getString(R.string.settings_version, BuildConfig.VERSION_NAME, BuildConfig.VERSION_CODE)
    }

    /** The toolbar's up arrow; wired in activity_settings.xml with android:onClick. */
    fun onNavigateUpClick(@Suppress("UNUSED_PARAMETER") view: View) {
        finish()
    }

    private fun bindUnits() {
        val summary = findViewById<TextView>(R.id.units_summary)
        fun show() {
            val metric = prefs.getBoolean(KEY_METRIC, true)
            summary.setText(if (metric) R.string.settings_units_metric else R.string.settings_units_imperial)
        }
        show()
        findViewById<View>(R.id.units_row).setOnClickListener {
            val options = intArrayOf(R.string.settings_units_metric, R.string.settings_units_imperial)
            choose(R.string.settings_units, options, if (prefs.getBoolean(KEY_METRIC, true)) 0 else 1) { which ->
                prefs.edit { putBoolean(KEY_METRIC, which == 0) }
                show()
            }
        }
    }

    private fun bindLanguage() {
        val summary = findViewById<TextView>(R.id.language_summary)
        val languages = Language.entries
        fun show() {
            summary.setText(Language.fromTag(prefs.getString(KEY_LANGUAGE, null)).labelRes)
        }
        show()
        findViewById<View>(R.id.language_row).setOnClickListener {
            val current = languages.indexOf(Language.fromTag(prefs.getString(KEY_LANGUAGE, null)))
            choose(R.string.settings_language, languages.map { it.labelRes }.toIntArray(), current) { which ->
                prefs.edit { putString(KEY_LANGUAGE, languages[which].tag) }
                show()
            }
        }
    }

    private fun bindSwitch(@IdRes id: Int, key: String, default: Boolean) {
        val switch = findViewById<MaterialSwitch>(id)
        switch.isChecked = prefs.getBoolean(key, default)
        switch.setOnCheckedChangeListener { _, checked -> prefs.edit { putBoolean(key, checked) } }
    }

    private fun choose(@StringRes title: Int, options: IntArray, checked: Int, onChoice: (Int) -> Unit) {
        AlertDialog.Builder(this)
            .setTitle(title)
            .setSingleChoiceItems(options.map { getString(it) }.toTypedArray(), checked) { dialog, which ->
                onChoice(which)
                dialog.dismiss()
            }
            .setNegativeButton(R.string.action_cancel, null)
            .show()
    }

    private enum class Language(val tag: String, @StringRes val labelRes: Int) {
        EnglishUk("en-GB", R.string.settings_language_en_gb),
        EnglishUs("en-US", R.string.settings_language_en_us),
        German("de-DE", R.string.settings_language_de);

        companion object {
            fun fromTag(tag: String?): Language = entries.firstOrNull { it.tag == tag } ?: EnglishUk
        }
    }

    private companion object {
        const val PREFS_NAME = "settings"
        const val KEY_METRIC = "units_metric"
        const val KEY_LANGUAGE = "language"
        const val KEY_WIFI_ONLY = "maps_wifi_only"
        const val KEY_WEATHER_ALERTS = "weather_alerts"
        const val KEY_DARK_MAP = "dark_map_style"
    }
}
