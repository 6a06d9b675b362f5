// libmosquitto (Debian's libmosquitto-dev): the MQTT client the Home Assistant bridge
// (`voicealarm mqtt`) talks to a broker through. Nothing else is needed from it.
#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#endif
