# Red team: memory that RLIMIT_DATA does not count: a shared mapping of /dev/zero, a
# MAP_GROWSDOWN mapping (counted as stack), and page tables of a huge read-only mapping.
import mmap
import os

MB = 1 << 20
try:
    fd = os.open("/dev/zero", os.O_RDWR)
    shared = mmap.mmap(fd, 200 * MB, flags=mmap.MAP_SHARED)
    shared[::4096] = b"x" * len(shared[::4096])
    print("OK /dev/zero shared 200 MB", flush=True)
except (OSError, ValueError) as exc:
    print("BLOCKED /dev/zero shared", type(exc).__name__, flush=True)
try:
    grows = mmap.mmap(-1, 200 * MB, flags=mmap.MAP_PRIVATE | 0x100)  # MAP_GROWSDOWN
    print("OK growsdown 200 MB", flush=True)
except (OSError, ValueError) as exc:
    print("BLOCKED growsdown", type(exc).__name__, flush=True)
try:
    huge = mmap.mmap(-1, 256 << 30, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)
    print("OK 256 GB read-only mapping", flush=True)
except (OSError, ValueError) as exc:
    print("BLOCKED 256 GB read-only mapping", type(exc).__name__, flush=True)
try:
    os.posix_fallocate(1, 0, 1)  # mode 0 stays allowed, and bounded by RLIMIT_FSIZE
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.fallocate(1, 1, ctypes.c_long(0), ctypes.c_long(1 << 30)) != 0:  # KEEP_SIZE
        raise OSError(ctypes.get_errno(), "fallocate")
    print("OK fallocate 1 GB past the output limit", flush=True)
except OSError as exc:
    print("BLOCKED fallocate KEEP_SIZE", exc.strerror, flush=True)
