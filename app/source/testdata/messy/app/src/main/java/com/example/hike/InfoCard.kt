package com.example.hike

import android.content.Context
import android.util.AttributeSet
import android.view.LayoutInflater
import android.widget.LinearLayout
import android.widget.TextView

class InfoCard(context: Context, attrs: AttributeSet?) : LinearLayout(context, attrs) {
    init {
        val root = LayoutInflater.from(context).inflate(R.layout.info_card_content, this, true)
        val a = context.obtainStyledAttributes(attrs, R.styleable.InfoCard)
        root.findViewById<TextView>(R.id.card_title).text = a.getString(R.styleable.InfoCard_cardTitle)
        a.recycle()
    }
}
