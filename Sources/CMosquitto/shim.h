// libmosquitto (Debian's libmosquitto-dev): the MQTT client the Home Assistant bridge
// (`voicealarm mqtt`) talks to a broker through, opened on first use (CLazyLoad): nothing else
// needs it, and with OpenSSL it is a few milliseconds of every start otherwise.
// Swift asks `cmosquitto_load()` first, then calls `cmosquitto_mosquitto_new()(…)`.
#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#include "../CLazyLoad/shim.h"

/// Every function of libmosquitto VoiceAlarm calls (one library: index 0).
#define CMOSQUITTO_FUNCTIONS(X) \
    X(0, mosquitto_lib_init) \
    X(0, mosquitto_new) \
    X(0, mosquitto_destroy) \
    X(0, mosquitto_int_option) \
    X(0, mosquitto_username_pw_set) \
    X(0, mosquitto_tls_set) \
    X(0, mosquitto_will_set) \
    X(0, mosquitto_connect_callback_set) \
    X(0, mosquitto_disconnect_callback_set) \
    X(0, mosquitto_message_callback_set) \
    X(0, mosquitto_connect_async) \
    X(0, mosquitto_reconnect_async) \
    X(0, mosquitto_disconnect) \
    X(0, mosquitto_loop) \
    X(0, mosquitto_publish) \
    X(0, mosquitto_subscribe) \
    X(0, mosquitto_strerror) \
    X(0, mosquitto_connack_string)

/// The library's soname: libmosquitto's ABI has been 1 through its 1.x and 2.x releases
/// (Debian's libmosquitto1); mosquitto.h carries only the API's version.
CLAZY_LIBRARIES(cmosquitto, CMOSQUITTO_FUNCTIONS, "libmosquitto.so.1")
#define CMOSQUITTO_ACCESSOR(library, name) CLAZY_ACCESSOR(cmosquitto, name)
CMOSQUITTO_FUNCTIONS(CMOSQUITTO_ACCESSOR)
#undef CMOSQUITTO_ACCESSOR

#endif
