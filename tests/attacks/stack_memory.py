# Red team: the main thread's stack is not counted by RLIMIT_DATA: raise the stack limit to its
# hard limit, and deep C recursion could hold gigabytes beyond the memory limit. Reports the
# largest stack the run may set.
import resource

soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
try:
    resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
except (ValueError, OSError) as exc:
    print("BLOCKED raising the stack limit", type(exc).__name__)
if hard == resource.RLIM_INFINITY:
    print("OK stack unlimited")
else:
    print("stack", hard >> 20, "MB")
