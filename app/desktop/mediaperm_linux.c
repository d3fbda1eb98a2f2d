//go:build desktop && linux

// The window's permission policy for WebKitGTK (see mediaperm_linux.go). Emission
// hooks run before the class handler, which denies whatever is still undecided; a
// request decided here stays decided (WebKit ignores a second decision).
#include <webkit2/webkit2.h>
#include "_cgo_export.h"

static gboolean fixthis_on_permission_request(GSignalInvocationHint *hint, guint n, const GValue *params, gpointer data)
{
    (void)hint;
    (void)data;
    if (n < 2)
        return TRUE;
    GObject *view = g_value_get_object(&params[0]);
    GObject *request = g_value_get_object(&params[1]);
    if (!WEBKIT_IS_WEB_VIEW(view) || !WEBKIT_IS_PERMISSION_REQUEST(request))
        return TRUE;
    if (!WEBKIT_IS_USER_MEDIA_PERMISSION_REQUEST(request)) {
        fixthisDeniedPermission((char *)G_OBJECT_TYPE_NAME(request));
        webkit_permission_request_deny(WEBKIT_PERMISSION_REQUEST(request));
        return TRUE;
    }
    WebKitUserMediaPermissionRequest *media = WEBKIT_USER_MEDIA_PERMISSION_REQUEST(request);
    const gchar *uri = webkit_web_view_get_uri(WEBKIT_WEB_VIEW(view));
    int audio = webkit_user_media_permission_is_for_audio_device(media) ? 1 : 0;
    int video = webkit_user_media_permission_is_for_video_device(media) ? 1 : 0;
    int display = 0;
#if WEBKIT_CHECK_VERSION(2, 34, 0)
    display = webkit_user_media_permission_is_for_display_device(media) ? 1 : 0;
#endif
    if (fixthisAllowUserMedia((char *)(uri ? uri : ""), audio, video, display))
        webkit_permission_request_allow(WEBKIT_PERMISSION_REQUEST(request));
    else
        webkit_permission_request_deny(WEBKIT_PERMISSION_REQUEST(request));
    return TRUE; // stay installed
}

static gboolean fixthis_on_load_changed(GSignalInvocationHint *hint, guint n, const GValue *params, gpointer data)
{
    (void)hint;
    (void)data;
    if (n < 1)
        return TRUE;
    GObject *view = g_value_get_object(&params[0]);
    if (!WEBKIT_IS_WEB_VIEW(view))
        return TRUE;
    WebKitSettings *settings = webkit_web_view_get_settings(WEBKIT_WEB_VIEW(view));
    if (!webkit_settings_get_enable_media_stream(settings))
        webkit_settings_set_enable_media_stream(settings, TRUE);
    return TRUE;
}

void fixthisInstallMediaPolicy(void)
{
    // The signals exist once the class is initialised; nothing has created a view yet.
    gpointer klass = g_type_class_ref(WEBKIT_TYPE_WEB_VIEW);
    guint permission = g_signal_lookup("permission-request", WEBKIT_TYPE_WEB_VIEW);
    guint load = g_signal_lookup("load-changed", WEBKIT_TYPE_WEB_VIEW);
    if (permission)
        g_signal_add_emission_hook(permission, 0, fixthis_on_permission_request, NULL, NULL);
    if (load)
        g_signal_add_emission_hook(load, 0, fixthis_on_load_changed, NULL, NULL);
    (void)klass; // kept referenced for the life of the process
}
