package com.example.hike;

import android.os.Bundle;
import android.view.ContextMenu;
import androidx.appcompat.app.AppCompatActivity;

/** The tracking screen. */
public class MainActivity extends AppCompatActivity {
    private int pointCount;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_main);
        findViewById(R.id.ok_button).setContentDescription(getString(R.string.confirm_route));
    }

    @Override
    public void onCreateContextMenu(ContextMenu menu, android.view.View v, ContextMenu.ContextMenuInfo info) {
        // "Stop tracking (12)": the count is filled in at run time.
        menu.add(0, 1, 0, getString(R.string.stop_tracking, pointCount));
        menu.add(0, 2, 0, getResources().getQuantityString(R.plurals.hikes_count, pointCount, pointCount));
    }
}
