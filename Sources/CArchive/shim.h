// libarchive (Debian's libarchive-dev): the tar files `voicealarm export` writes and `import`
// reads. Only the tar formats are used. The file-type constants are macros with a cast, which
// Swift does not import: they are given as functions here, prefixed va_.
#ifndef CARCHIVE_SHIM_H
#define CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

static inline unsigned int va_archive_type_regular(void) { return AE_IFREG; }
static inline unsigned int va_archive_type_directory(void) { return AE_IFDIR; }
static inline unsigned int va_archive_type_symlink(void) { return AE_IFLNK; }
static inline unsigned int va_archive_type_character_device(void) { return AE_IFCHR; }
static inline unsigned int va_archive_type_block_device(void) { return AE_IFBLK; }
static inline unsigned int va_archive_type_fifo(void) { return AE_IFIFO; }
static inline unsigned int va_archive_type_socket(void) { return AE_IFSOCK; }

#endif
