"""Compile the syscall policy (``syscalls.py``) into seccomp BPF and install it.

A small assembler of our own rather than libseccomp: the child loads it by path, before any
isolation, from a venv that cannot install a system library, and the program is a search by
halves over the syscall numbers down to "is it this syscall? do its arguments match?" blocks.
The architecture is checked first (a foreign one kills the process), x32 numbers on x86_64 are
refused, anything unlisted is ENOSYS.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .syscalls import Arg, Rule
if __package__:
    from . import prctl, syscalls
# else: loaded by path in the sandbox child, which sets ``syscalls`` and ``prctl`` on this
# module itself

_LD_W_ABS, _JA, _JEQ, _JGE, _AND, _RET = 0x20, 0x05, 0x15, 0x35, 0x54, 0x06
_LEAF = 4  # syscalls a leaf of the search tree tests one by one
_ALLOW, _ERRNO, _KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
_SECCOMP_MODE_FILTER = 2
_OFF_NR, _OFF_ARCH, _OFF_ARGS = 0, 4, 16  # struct seccomp_data; args are 64-bit little-endian


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _value(arg: Arg, pid: int) -> int:
    if arg.value == "self":
        return pid
    if arg.value == "-self":
        return -pid
    assert isinstance(arg.value, int)
    return arg.value


def _conjunction(args: tuple[Arg, ...], pid: int) -> list[tuple[int, int, int | None]]:
    """Each test as (offset of the argument's low word, expected word, mask or None)."""
    return [
        (
            _OFF_ARGS + 8 * arg.index,
            _value(arg, pid) & arg.mask,
            None if arg.mask == 0xFFFFFFFF else arg.mask,
        )
        for arg in args
    ]


def _rule_block(rule: Rule, pid: int) -> list[bytes]:
    """Instructions run once the syscall number matched: allow, or return the rule's errno."""
    refuse = _insn(_RET, _ERRNO | getattr(errno, rule.errno))
    block: list[bytes] = []
    for alternative in rule.when:
        tests = _conjunction(alternative, pid)
        # each test is a load (+ and) + a jump; on mismatch, skip the rest and the ALLOW
        size = sum(3 if mask is not None else 2 for _, _, mask in tests)
        done = 0
        for offset, word, mask in tests:
            block.append(_insn(_LD_W_ABS, offset))
            done += 1
            if mask is not None:
                block.append(_insn(_AND, mask))
                done += 1
            done += 1
            block.append(_insn(_JEQ, word, 0, size - done + 1))
        block.append(_insn(_RET, _ALLOW))
    block.append(refuse)
    return block


_BUILT: dict[tuple[int, str | None], bytes] = {}  # a fork server builds pid 2's once for all


def build_filter(pid: int, *, machine: str | None = None) -> bytes:
    """The BPF program for this machine (or ``machine``), with ``self`` meaning ``pid``."""
    built = _BUILT.get((pid, machine))
    if built is None:
        built = _BUILT[(pid, machine)] = _build(pid, machine)
    return built


def _build(pid: int, machine: str | None) -> bytes:
    arch, numbers, foreign = syscalls.ARCHES[machine or os.uname().machine]
    prog = [
        _insn(_LD_W_ABS, _OFF_ARCH),
        _insn(_JEQ, arch, 1, 0),
        _insn(_RET, _KILL_PROCESS),
        _insn(_LD_W_ABS, _OFF_NR),
    ]
    if foreign is not None:  # x32 syscalls carry a high bit: refuse them all
        prog += [_insn(_JGE, foreign, 0, 1), _insn(_RET, _ERRNO | errno.EPERM)]
    blocks: list[tuple[int, list[bytes]]] = []
    for name, (rule, _why) in syscalls.POLICY.items():
        if name not in numbers:
            continue
        block = _rule_block(rule, pid)
        if len(block) > 255:
            raise ValueError(f"the rule for {name} is too long for one BPF jump")
        blocks.append((numbers[name], block))
    prog += _search(sorted(blocks, key=lambda found: found[0]))
    return b"".join(prog)


def _search(blocks: list[tuple[int, list[bytes]]]) -> list[bytes]:
    """The syscall number (in the accumulator) looked up by halves, then a few one by one: a
    straight list of ~350 tests made every syscall not yet decided walk half of it, and the
    kernel walks it for each of ~450 numbers when it loads the filter (its cache of always
    allowed syscalls): ~0.2 ms of every run's set-up. Each block ends in a return; so does
    each leaf, with ENOSYS for a number it does not hold."""
    if len(blocks) <= _LEAF:
        leaf: list[bytes] = []
        for number, block in blocks:
            leaf.append(_insn(_JEQ, number, 0, len(block)))
            leaf += block
        return [*leaf, _insn(_RET, _ERRNO | errno.ENOSYS)]
    half = len(blocks) // 2
    low, high = _search(blocks[:half]), _search(blocks[half:])
    # at or above the upper half's first number: jump past the lower half (a JA: a conditional
    # jump reaches 255 instructions at most)
    return [_insn(_JGE, blocks[half][0], 0, 1), _insn(_JA, len(low)), *low, *high]


def supported() -> bool:
    return os.uname().machine in syscalls.ARCHES


def numbers() -> Mapping[str, int]:
    return syscalls.ARCHES[os.uname().machine][1]


class _Fprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def set_no_new_privs() -> None:
    prctl.prctl(prctl.PR_SET_NO_NEW_PRIVS, 1)


def install(pid: int) -> None:
    """Load the filter on the calling thread (the child is still single-threaded here)."""
    program = build_filter(pid)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    set_no_new_privs()
    prctl.prctl(prctl.PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog))
