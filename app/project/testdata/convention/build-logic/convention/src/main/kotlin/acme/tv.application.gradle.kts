package acme

plugins {
    id("acme.android.application")
}
