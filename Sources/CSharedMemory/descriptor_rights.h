// The layout of SCM_RIGHTS control messages, which Swift cannot compute: CMSG_SPACE,
// CMSG_FIRSTHDR and CMSG_NXTHDR are macros. Swift fills `struct msghdr` and calls
// sendmsg/recvmsg itself (Sources/LocalizationSockets/DescriptorPassing.swift); these
// helpers only read and write the control buffer, given as bytes.
#ifndef L10ND_DESCRIPTOR_RIGHTS_H
#define L10ND_DESCRIPTOR_RIGHTS_H

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

/// How many control bytes carry `count` descriptors in one SCM_RIGHTS message.
static inline size_t l10nd_rights_space(size_t count) {
    return CMSG_SPACE(count * sizeof(int));
}

/// Writes one SCM_RIGHTS message with `count` descriptors at the start of `control`, which
/// holds at least `l10nd_rights_space(count)` bytes, zeroing it first; returns the length to
/// put in `msg_controllen`.
static inline size_t l10nd_rights_encode(void *control, const int *descriptors, size_t count) {
    size_t space = CMSG_SPACE(count * sizeof(int));
    memset(control, 0, space);
    struct msghdr message = {.msg_control = control, .msg_controllen = space};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(header), descriptors, count * sizeof(int));
    return space;
}

/// Counts the descriptors of every SCM_RIGHTS message in the `length` control bytes that
/// recvmsg returned and, when `descriptors` is not NULL, copies them there in order (it
/// holds the count a first call with NULL returned).
static inline size_t l10nd_rights_received(const void *control, size_t length, int *descriptors) {
    struct msghdr message = {.msg_control = (void *)control, .msg_controllen = length};
    size_t seen = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL;
         header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        // A header whose length runs past the buffer (it cannot, from the kernel) counts
        // only the descriptors inside it.
        size_t end = (size_t)((const unsigned char *)CMSG_DATA(header) - (const unsigned char *)control);
        size_t payload = header->cmsg_len > CMSG_LEN(0) ? header->cmsg_len - CMSG_LEN(0) : 0;
        if (end > length) continue;
        if (payload > length - end) payload = length - end;
        size_t count = payload / sizeof(int);
        if (descriptors != NULL) memcpy(descriptors + seen, CMSG_DATA(header), count * sizeof(int));
        seen += count;
    }
    return seen;
}

#endif
