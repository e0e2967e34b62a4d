# Its namespace's init (pid 1) keeps its capabilities and no seccomp filter: take it over through
# /proc (its memory, environment, map, descriptors), and it would hold the run's whole namespace.
for path, mode in (
    ("/proc/1/mem", "r+b"),
    ("/proc/1/mem", "rb"),
    ("/proc/1/environ", "rb"),
    ("/proc/1/maps", "rb"),
    ("/proc/1/fd/1", "ab"),
):
    try:
        with open(path, mode):
            print("OK", path, mode, flush=True)
    except OSError as exc:
        print("BLOCKED", path, mode, exc.strerror, flush=True)
