package com.example.views

import android.os.Bundle
import android.view.Menu
import android.view.View
import android.widget.Switch
import android.widget.TextView
import androidx.appcompat.app.AppCompatActivity

/** Settings screen, built from res/layout/activity_settings.xml. */
class SettingsActivity : AppCompatActivity() {

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContentView(R.layout.activity_settings)
        // findViewById(R.id.legacy_row) was removed with the legacy row.
        bindUnits()
        findViewById<Switch>(R.id.alerts_switch).isChecked = true
        findViewById<View>(R.id.progress).visibility = View.GONE
    }

    private fun bindUnits() {
        fun show() {
            findViewById<TextView>(R.id.units_summary).setText(R.string.settings_units_metric)
        }
        show()
    }

    override fun onCreateOptionsMenu(menu: Menu): Boolean {
        menuInflater.inflate(R.menu.settings, menu)
        return true
    }
}
