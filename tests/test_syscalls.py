"""The syscall policy as a golden table: a probe inside the strict sandbox calls every syscall of
the policy (and some outside it) and what it sees must match tests/golden/syscalls_<arch>.txt.
Any change to the policy changes a row: update the golden file on purpose, with --update-golden.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import json
import os
import struct
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import TESTS, Golden

from grader.sandbox import Limits, Sandbox, SandboxMode, SandboxUnavailable
from grader.sandbox.seccomp import build_filter
from grader.sandbox.syscalls import AARCH64, ARCHES, POLICY, X86_64

ENDS_THE_PROCESS = {"exit", "exit_group", "rt_sigreturn"}  # not probed: they would end it
MAP_SHARED, MAP_PRIVATE, MAP_ANONYMOUS = 0x01, 0x02, 0x20


def _calls(numbers: dict[str, int]) -> list[tuple[str, int, list[int | str]]]:
    calls: list[tuple[str, int, list[int | str]]] = [
        (name, numbers[name], [-1] * 6)
        for name in sorted(POLICY)
        if name in numbers and name not in ENDS_THE_PROCESS
    ]
    n = numbers
    calls += [
        ("kill(self,0)", n["kill"], ["self", 0]),
        ("kill(1,0)", n["kill"], [1, 0]),
        ("tgkill(self,self,0)", n["tgkill"], ["self", "self", 0]),
        ("prlimit64(0,NOFILE)", n["prlimit64"], [0, 7, 0, 0]),
        ("prlimit64(1,NOFILE)", n["prlimit64"], [1, 7, 0, 0]),
        ("setpriority(PROCESS,1,0)", n["setpriority"], [0, 1, 0]),
        # its own: allowed, a NULL mask would be EFAULT; refused, EPERM (issue 22, finding 10)
        ("sched_setaffinity(self)", n["sched_setaffinity"], [0, 8, 0]),
        ("sched_getaffinity(self)", n["sched_getaffinity"], [0, 8, 0]),
        ("fcntl(0,F_GETFD)", n["fcntl"], [0, 1]),
        ("fcntl(0,F_SETLEASE)", n["fcntl"], [0, 1024, 0]),
        ("fcntl(0,F_SETLK)", n["fcntl"], [0, 6, 0]),
        ("ioctl(0,TIOCSTI)", n["ioctl"], [0, 0x5412, 0]),
        ("prctl(PR_SET_PDEATHSIG)", n["prctl"], [1, 9]),
        ("mmap(anonymous private)", n["mmap"], [0, 4096, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0]),
        ("mmap(anonymous shared)", n["mmap"], [0, 4096, 3, MAP_SHARED | MAP_ANONYMOUS, -1, 0]),
        ("mmap(stdin shared)", n["mmap"], [0, 4096, 1, MAP_SHARED, 0, 0]),
        ("mmap(growsdown)", n["mmap"], [0, 4096, 3, MAP_PRIVATE | MAP_ANONYMOUS | 0x100, -1, 0]),
        ("fallocate(1,0)", n["fallocate"], [1, 0, 0, 1]),
        ("fallocate(1,KEEP_SIZE)", n["fallocate"], [1, 1, 0, 1 << 30]),
        ("setpriority(PRIO_USER,0,19)", n["setpriority"], [2, 0, 19]),
        ("clone(new process)", n["clone"], [17, 0, 0, 0, 0]),  # SIGCHLD: a fork
        ("clone3", n["clone3"], [0, 0]),
        ("open_tree_attr (467)", 467, [-1] * 6),
        ("number 1000", 1000, [-1] * 6),
    ]
    if os.uname().machine == "x86_64":
        calls.append(("x32 read", 0x40000000, [-1, 0, 0]))
    return calls


@pytest.fixture(scope="module")
def strict() -> Sandbox:
    try:
        return Sandbox.create(SandboxMode.STRICT)
    except SandboxUnavailable as exc:
        pytest.fail(f"this Linux machine should offer every layer: {exc}")


def test_the_probe_sees_the_policy(strict: Sandbox, golden: Golden) -> None:
    machine = os.uname().machine
    if machine not in ARCHES:
        pytest.skip(f"no syscall table for {machine}")
    calls = _calls(ARCHES[machine][1])
    stdin = json.dumps({"calls": calls}).encode()
    probe = [sys.executable, str(TESTS / "attacks" / "syscall_probe.py")]
    result = strict.run(probe, stdin=stdin, limits=Limits())
    assert result.exit_code == 0, result.stderr.decode()
    lines = result.stdout.decode()
    assert len(lines.splitlines()) == len(calls)  # every call was made and reported
    golden(f"syscalls_{machine}.txt", lines)


def test_every_rule_compiles_for_both_architectures() -> None:
    for machine in ARCHES:
        program = build_filter(4242, machine=machine)
        assert len(program) % 8 == 0 and len(program) // 8 < 4096


@pytest.mark.parametrize(
    ("machine", "table", "arch"), [("x86_64", X86_64, 0xC000003E), ("aarch64", AARCH64, 0xC00000B7)]
)
def test_numbers_are_the_kernels(machine: str, table: dict[str, int], arch: int) -> None:
    """Cross-checked against libseccomp's tables where the library is installed."""
    path = ctypes.util.find_library("seccomp")
    if path is None:
        pytest.skip("libseccomp is not installed here")
    lib = ctypes.CDLL(path)
    lib.seccomp_syscall_resolve_name_arch.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    for name, number in table.items():
        assert lib.seccomp_syscall_resolve_name_arch(arch, name.encode()) == number, name


def test_every_rule_says_why() -> None:
    assert all(len(why) > 10 for _rule, why in POLICY.values())


# The filter run as the kernel runs it, for every syscall number of both architectures: its
# decision must be the policy's, however the program is laid out (a search by halves).
_ALLOW, _ERRNO, _KILL = 0x7FFF0000, 0x00050000, 0x80000000


def _run_filter(program: bytes, arch: int, number: int, args: Sequence[int]) -> tuple[int, int]:
    """(decision, instructions run) for a syscall with these numbers."""
    data = struct.pack("<iIQ6Q", number, arch, 0, *[a & (2**64 - 1) for a in args])
    insns = [struct.unpack_from("HBBI", program, at) for at in range(0, len(program), 8)]
    acc, pc, steps = 0, 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        steps += 1
        pc += 1
        if code == 0x20:  # ld [k]
            acc = struct.unpack_from("<I", data, k)[0]
        elif code == 0x54:  # and #k
            acc &= k
        elif code == 0x05:  # ja +k
            pc += k
        elif code == 0x15:  # jeq #k
            pc += jt if acc == k else jf
        elif code == 0x35:  # jge #k
            pc += jt if acc >= k else jf
        elif code == 0x06:  # ret #k
            return k, steps
        else:
            raise AssertionError(f"an instruction the emulator does not know: {code:#x}")


def _expected(rule: Any, args: Sequence[int], pid: int) -> int:
    for alternative in rule.when:
        if all(
            (args[a.index] & a.mask) & 0xFFFFFFFF
            == ({"self": pid, "-self": -pid}.get(a.value, a.value) & a.mask) & 0xFFFFFFFF
            for a in alternative
        ):
            return _ALLOW
    refused: int = getattr(errno, rule.errno)
    return _ERRNO | refused


def _argument_sets(rule: Any, pid: int) -> list[list[int]]:
    """All zeros and all ones, and for each alternative of the rule, arguments that meet it."""
    found = [[0] * 6, [-1] * 6]
    for alternative in rule.when:
        args = [0] * 6
        for a in alternative:
            args[a.index] = {"self": pid, "-self": -pid}.get(a.value, a.value)
        found.append(args)
    return found


@pytest.mark.parametrize("machine", sorted(ARCHES))
def test_the_filter_decides_every_number_as_the_policy_says(machine: str) -> None:
    arch, numbers, foreign = ARCHES[machine]
    pid = 4242
    program = build_filter(pid, machine=machine)
    by_number = {numbers[name]: rule for name, (rule, _why) in POLICY.items() if name in numbers}
    longest = 0
    for number in range(max(numbers.values()) + 64):
        rule = by_number.get(number)
        for args in _argument_sets(rule, pid) if rule is not None else [[0] * 6]:
            decided, steps = _run_filter(program, arch, number, args)
            wanted = _expected(rule, args, pid) if rule is not None else _ERRNO | errno.ENOSYS
            assert decided == wanted, (machine, number, args)
            longest = max(longest, steps)
    # found by halves: a straight list made an unlisted number walk all ~700 instructions,
    # and the kernel walks it for each number when it loads the filter
    assert longest < 60, longest
    other = 0xC00000B7 if arch != 0xC00000B7 else 0xC000003E
    assert _run_filter(program, other, 0, [0] * 6)[0] == _KILL
    if foreign is not None:
        assert _run_filter(program, arch, foreign | 1, [0] * 6)[0] == _ERRNO | errno.EPERM
