// What Swift cannot call in microhttpd.h: its variadic functions. Every helper is prefixed `cmhd_`.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// An unescaper that leaves the text as it came: the URL's path is split on "/" before its
/// segments are decoded (a name holding "%2F" stays one segment), and query values are decoded
/// by the server itself.
static inline size_t cmhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

/// libmicrohttpd's own unescaper ("%HH"), as the option wants it.
static inline size_t cmhd_unescape(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return MHD_http_unescape(text);
}

/// Starts a daemon on `address` (or on `listen_socket`, a listening socket systemd passed, when it
/// is not -1) with the options a server needs: a connection limit (whole and
/// per client address, 0 for none), an idle timeout, the memory a connection may use, a completion
/// callback, a callback as each connection opens and closes,
/// and TLS when `key_pem` and `cert_pem` are given (else plain HTTP), limited to the GnuTLS
/// `priorities` (protocol versions and cipher suites). With `keep_escapes` the URL and its query
/// reach the handler still percent-encoded (`cmhd_keep_escaped`). MHD_start_daemon is variadic.
static inline struct MHD_Daemon *cmhd_start(unsigned int flags, const struct sockaddr *address,
                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                            MHD_RequestCompletedCallback completed, void *completed_cls,
                                            MHD_NotifyConnectionCallback connections, void *connections_cls,
                                            unsigned int connection_limit, unsigned int per_address_limit,
                                            unsigned int timeout_seconds, size_t memory_limit,
                                            const char *key_pem, const char *cert_pem, const char *priorities,
                                            int keep_escapes, int listen_socket) {
    struct MHD_OptionItem options[] = {
        listen_socket >= 0 ? (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, listen_socket, NULL }
                           : (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)address },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_address_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connections, connections_cls },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)(keep_escapes ? cmhd_keep_escaped : cmhd_unescape), NULL },
        { key_pem ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)key_pem },
        { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)cert_pem },
        { MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)priorities },
        { MHD_OPTION_END, 0, NULL },
    };
    if (key_pem) flags |= MHD_USE_TLS;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// `host` (a numeric IPv4 or IPv6 address) and `port` as a socket address; 0 when `host` is one.
static inline int cmhd_socket_address(const char *host, uint16_t port, struct sockaddr_storage *out) {
    memset(out, 0, sizeof *out);
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        return 0;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        return 0;
    }
    return -1;
}

/// A response holding a copy of `size` bytes at `data` (the enum is out of Swift's reach).
static inline struct MHD_Response *cmhd_response_copying(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

/// The port a daemon listens on (the one the kernel chose for port 0), or 0.
static inline uint16_t cmhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The client's address as text ("127.0.0.1", "::1"), written to `out` (at least INET6_ADDRSTRLEN bytes); 0 when known.
static inline int cmhd_client_address(struct MHD_Connection *connection, char *out, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, out, size) ? 0 : -1;
    }
    if (address->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, out, size) ? 0 : -1;
    }
    return -1;
}

/// The socket of a connection, or -1: what a deadline shuts down (never closes: libmicrohttpd does,
/// after it says the connection closed).
static inline int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

#endif
