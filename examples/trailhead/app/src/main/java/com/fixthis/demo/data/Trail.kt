package com.fixthis.demo.data

/** How demanding a trail is; drives the badge colour and the "Easy" filter. */
enum class Difficulty { Easy, Moderate, Hard }

data class Trail(
    val id: String,
    val name: String,
    val region: String,
    val distanceKm: Double,
    val elevationGainM: Int,
    val durationMinutes: Int,
    val difficulty: Difficulty,
    val rating: Double,
    val description: String,
    val photoUrl: String,
    val dogsAllowed: Boolean = true,
    val isLoop: Boolean = true,
)

data class UserProfile(
    val id: String,
    val firstName: String,
    val email: String,
    /** Where the user usually hikes: the "Nearby" filter and new trails start from it. */
    val homeRegion: String,
)
