"""Options as run: what the tools echo of their options against their command lines, the
command lines against the run's configuration, and the fixed parameters and cache defeats that
the benchmark of that era always passes.

Three comparisons, each over the commands the run records (result.txt `exe`, io500.sh `[Exec]`)
and the command the tool printed itself (IOR's `Command line`, mdtest's `Command line used`):

1. IOR's `Options:` / `Summary:` block and its "Summary of all tests" table, and mdtest's rank
   shift and file count, are what the tool actually ran with. A command line that says otherwise
   was edited after the run (`options-echo-mismatch`).
2. The C application builds every command from config.ini (transferSize, blockSize, filePerProc,
   segmentCount, n, API ...), io500.sh from the variables it prints as it runs. A command that
   disagrees with the configuration beside it belongs to another run or was edited
   (`options-config-mismatch`).
3. The cache defeats of every IOR phase (-C -Q 1: read back by a rank on another node; -e: fsync
   at close; -g: barriers around open/close) and of every mdtest phase (-N 1: stat, read and
   delete by a rank on another node; -F: files only; -Y: sync after creating, C application from
   2020-05-28) must be there (`options-cache-defeat-missing`); params.py already holds the hard
   sizes, the stonewall and read verification.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from dataclasses import dataclass

from scoring.cmdline import CommandLine, configured_number, option_number, parameter_number
from scoring.codes import finding
from scoring.model import SCORED_PHASES, EchoedOption, Finding, Phase, RunResult
from scoring.rules.common import config_source, config_value, run_date
from scoring.rules.params import SHELL_MDTEST_VERIFY_SINCE

# IOR options that take a value and options that are switches, by IOR's own parameter names (the
# names -O accepts and the TEST: listing prints).
IOR_VALUES: dict[str, str] = {
    "-t": "transferSize",
    "-b": "blockSize",
    "-s": "segmentCount",
    "-Q": "taskPerNodeOffset",
    "-D": "deadlineForStonewalling",
    "-i": "repetitions",
    "-a": "api",
}
IOR_SWITCHES: dict[str, str] = {
    "-F": "filePerProc",
    "-C": "reorderTasks",
    "-Z": "reorderTasksRandom",
    "-z": "randomOffset",
    "-c": "collective",
    "-e": "fsync",
    "-g": "intraTestBarriers",
}
# IOR's defaults for what a command does not set (unchanged from IOR 3.0 to 4.x).
IOR_DEFAULTS: dict[str, str] = {
    "transferSize": "262144",
    "blockSize": "1048576",
    "segmentCount": "1",
    "taskPerNodeOffset": "1",
    "deadlineForStonewalling": "0",
    "stoneWallingWearOut": "0",
    "repetitions": "1",
    **dict.fromkeys(IOR_SWITCHES.values(), "0"),
}
_SWITCH_NAMES = frozenset(IOR_SWITCHES.values())
_OPTION_OF = {name: option for option, name in (*IOR_VALUES.items(), *IOR_SWITCHES.items())}
_DIRECTIVES = {name.lower(): name for name in (*IOR_DEFAULTS, "api")}


def ior_parameters(command: str) -> dict[str, str]:
    """The IOR parameters a command sets, as IOR's parser reads it: `-t 2m`, `-t=2m`, `-i2`,
    `-O transferSize=2m`; the last setting wins. Options the rules do not need are skipped."""
    tokens = CommandLine.parse(command).tokens
    found: dict[str, str] = {}
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        head = token[:2]
        if token == "-O" and index < len(tokens):
            _directive(tokens[index], found)
            index += 1
        elif token.startswith("-O="):
            _directive(token[3:], found)
        elif head in IOR_VALUES:
            if len(token) > 2:
                found[IOR_VALUES[head]] = token[3:] if token[2] == "=" else token[2:]
            elif index < len(tokens):
                found[IOR_VALUES[head]] = tokens[index]
                index += 1
        elif token in IOR_SWITCHES:
            found[IOR_SWITCHES[token]] = "1"
    return found


def _directive(item: str, found: dict[str, str]) -> None:
    key, sep, value = item.partition("=")
    name = _DIRECTIVES.get(key.strip().lower())
    if sep and name is not None:
        found[name] = value.strip()


def echo_agrees(echo: EchoedOption, commanded: str) -> bool:
    """Whether the value a command sets is one the echo allows (`commanded` as the command wrote it)."""
    if echo.low is None or echo.high is None:
        return echo.text.casefold() == commanded.split(" ", 1)[0].casefold()
    if echo.name in _SWITCH_NAMES:
        # IOR 3.3 counts a repeated switch (`-C ... -C` printed reord 2 in a real run) and the
        # Options block only says on or off: on or off is what is compared.
        return (echo.low > 0) == (commanded != "0")
    value = parameter_number(echo.name, commanded)
    if value is None:
        return True  # a value IOR would not have parsed either: nothing to compare
    # The echo's range already holds the printing's rounding; the margin is float noise only.
    margin = 1e-9 * max(1.0, abs(value))
    return echo.low - margin <= value <= echo.high + margin


@dataclass(frozen=True)
class _Command:
    text: str
    where: str  # "result.txt", "the tool's output", ...


def _commands(phase: Phase, recorded_as: str) -> Iterator[_Command]:
    """The distinct commands of a phase: the one the run records and the one the tool printed."""
    seen: set[str] = set()
    for text, where in (
        (phase.command, recorded_as),
        (phase.raw.command if phase.raw else None, phase.raw.file if phase.raw else ""),
    ):
        if text and text not in seen:
            seen.add(text)
            yield _Command(text, where)


def _recorded_as(run: RunResult) -> str:
    return "io500.sh's [Exec] line" if run.era.is_shell else "result.txt"


def _severity_code(phase: Phase, scored: str, unscored: str) -> str:
    return scored if phase.name in SCORED_PHASES else unscored


# --- 1. the echo against the command ------------------------------------------------------------
def _echo_finding(phase: Phase, tool: str, file: str, name: str, echoed: str, commanded: str) -> Finding:
    return finding(
        _severity_code(phase, "options-echo-mismatch", "options-echo-unscored"),
        phase=phase.name,
        tool=tool,
        file=file,
        name=name,
        echoed=echoed,
        commanded=commanded,
    )


def _ior_echo(phase: Phase) -> list[Finding]:
    raw = phase.raw
    if raw is None or not raw.options or raw.command is None:
        return []
    # The tool's own printed command is what it parsed; result.txt's copy is compared with it by
    # the evidence rules (evidence-command-mismatch).
    commanded = {**IOR_DEFAULTS, **ior_parameters(raw.command)}
    for echo in raw.options:
        value = commanded.get(echo.name)
        if value is not None and not echo_agrees(echo, value):
            return [_echo_finding(phase, "IOR", raw.file, echo.name, f"{echo.text} ({echo.source})", value)]
    # The block prints the task reordering whenever -C is given once (1,789 of 1,789 outputs of
    # both corpora; IOR 3.3 prints nothing for a doubled -C): a -C the block does not show was
    # added to the command afterwards.
    block = {echo.source for echo in raw.options} & {"Options", "Summary"}
    shows_reorder = any(echo.name == "reorderTasks" and echo.source in block for echo in raw.options)
    if block and not shows_reorder and CommandLine.parse(raw.command).tokens.count("-C") == 1:
        return [_echo_finding(phase, "IOR", raw.file, "reorderTasks", "no task reordering (Options)", "-C")]
    return []


def _mdtest_echo(phase: Phase) -> list[Finding]:
    raw = phase.raw
    if raw is None or not raw.options or raw.command is None:
        return []
    cmd = CommandLine.parse(raw.command)
    stride = cmd.number("-N") or 0.0
    shown_stride = f"-N {cmd.value('-N')}" if stride else "no -N"
    shifted = False
    for echo in raw.options:
        if echo.name == "items":
            items = cmd.number("-n")
            comparable = items is not None and cmd.has_flag("-F") and not cmd.values("-I")
            if comparable and items is not None and not _items_fit(echo.low, items, cmd):
                return [
                    _echo_finding(phase, "mdtest", raw.file, "-n", f"'{echo.text}'", f"-n {cmd.value('-n')}")
                ]
        elif echo.name == "rankShift":
            shifted = True
            if not _shift_fits(echo.low, stride, raw.tasks):
                return [_echo_finding(phase, "mdtest", raw.file, "-N", f"'{echo.text}'", shown_stride)]
    # mdtest prints its shift whenever -N is set (2,477 of 2,477 outputs of both corpora, every
    # era): a -N without it was added to the command afterwards.
    if stride > 0 and not shifted:
        return [_echo_finding(phase, "mdtest", raw.file, "-N", "no 'Shifting ranks' line", shown_stride)]
    return []


def _items_fit(echoed: float | None, items: float, cmd: CommandLine) -> bool:
    """mdtest spreads -n over the directories of its tree (-z depth, -b branches) and drops the
    remainder: each rank creates fewer than -n files by less than one per directory (a real run:
    -n 380000 over 256 leaves made 379904 files per rank). Without a tree the count is -n."""
    if echoed is None:
        return True
    depth = cmd.number("-z") or 0.0
    branches = cmd.number("-b") or 1.0
    if depth < 0 or branches < 1 or depth > 64:
        return True  # nothing mdtest would have run; other rules judge the command
    try:
        directories = sum(branches**level for level in range(int(depth) + 1))
    except OverflowError:  # a tree wider than any float: nothing mdtest would have run
        return True
    return items - directories < echoed <= items


def _shift_fits(shift: float | None, stride: float, tasks: int | None) -> bool:
    """mdtest shifts by -N, or by -N times the tasks of node 0 when tasks sit by node: a shift
    printed for a command without -N, or one no placement explains, is a contradiction."""
    if shift is None or stride <= 0:
        return shift is None or stride > 0
    if shift == stride:
        return True
    # Tasks of node 0 are not printed; any whole number of tasks per node up to all of them fits.
    per_node = shift / stride
    if not math.isfinite(per_node):  # int() of inf raises
        return False
    return per_node == int(per_node) and (tasks is None or per_node <= tasks)


def echo_rules(run: RunResult) -> list[Finding]:
    findings: list[Finding] = []
    for phase in (*run.phases.values(), *run.extra_phases.values()):
        if phase.raw is None:
            continue
        if phase.raw.tool == "ior":
            findings.extend(_ior_echo(phase))
        elif phase.raw.tool == "mdtest":
            findings.extend(_mdtest_echo(phase))
    return findings


# --- 2. the commands against the configuration ----------------------------------------------------
# (config section, key, IOR parameter) the C application passes verbatim into the IOR command of
# every phase of the family (phase_ior_easy.c / phase_ior_hard.c).
IOR_CONFIG: dict[str, tuple[tuple[str, str], ...]] = {
    "ior-easy": (
        ("transferSize", "transferSize"),
        ("blockSize", "blockSize"),
        ("filePerProc", "filePerProc"),
    ),
    "ior-hard": (("segmentCount", "segmentCount"),),
}
# mdtest: the -n of a family (phase_mdtest_easy.c / phase_mdtest_hard.c: `n`).
MDTEST_CONFIG: dict[str, str] = {"mdtest-easy": "n", "mdtest-hard": "n"}
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def _family(name: str) -> str | None:
    for family in (*IOR_CONFIG, *MDTEST_CONFIG):
        if name.startswith(family + "-"):
            return family
    return None


def _config_text(run: RunResult, section: str, key: str) -> str | None:
    value = config_value(run, section, key)
    if value is None:
        return None
    value = value.split("#", 1)[0].split(";", 1)[0].strip()
    return value or None


def _config_mismatch(
    run: RunResult, phase: Phase, command: _Command, key: str, configured: str, used: str
) -> Finding:
    return finding(
        "options-config-mismatch",
        phase=phase.name,
        where=command.where,
        source=config_source(run),
        key=key,
        configured=configured,
        used=used,
    )


def _ior_config(run: RunResult, phase: Phase, family: str) -> Finding | None:
    for command in _commands(phase, _recorded_as(run)):
        commanded = {**IOR_DEFAULTS, **ior_parameters(command.text)}
        for key, name in IOR_CONFIG[family]:
            configured = _config_text(run, family, key)
            if configured is None:
                continue
            used = commanded.get(name)
            if used is None:
                continue
            if name == "filePerProc":
                wanted = "1" if configured.lower() in _TRUE else "0" if configured.lower() in _FALSE else None
                if wanted is not None and used != wanted:
                    shown = "-F" if used == "1" else "no -F"
                    return _config_mismatch(run, phase, command, f"[{family}] {key}", configured, shown)
                continue
            if configured_number(name, configured) != parameter_number(name, used):
                shown = f"{_OPTION_OF.get(name, name)} {used}"
                return _config_mismatch(run, phase, command, f"[{family}] {key}", configured, shown)
    return None


def _mdtest_config(run: RunResult, phase: Phase, family: str) -> Finding | None:
    configured = _config_text(run, family, MDTEST_CONFIG[family])
    if configured is None:
        return None
    for command in _commands(phase, _recorded_as(run)):
        used = CommandLine.parse(command.text).value("-n")
        if used is not None and option_number(used) != option_number(configured):
            return _config_mismatch(run, phase, command, f"[{family}] n", configured, f"-n {used}")
    return None


def _api_config(run: RunResult, phase: Phase, family: str) -> Finding | None:
    """The backend: the phase's API, else its family's, else [global] api (default POSIX); the
    application passes its first word to -a and the rest as the backend's own options."""
    for section, key in ((phase.name, "API"), (family, "API"), ("global", "api")):
        configured = _config_text(run, section, key)
        if configured is not None:
            break
    else:
        section, key, configured = "global", "api", "POSIX"
    backend = configured.split()[0]
    for command in _commands(phase, _recorded_as(run)):
        used = CommandLine.parse(command.text).value("-a")
        if used is not None and used.casefold() != backend.casefold():
            return _config_mismatch(run, phase, command, f"[{section}] {key}", configured, f"-a {used}")
    return None


def config_rules(run: RunResult) -> list[Finding]:
    if run.era.is_shell:
        return _shell_config_rules(run)
    if not run.config:
        return []
    findings: list[Finding] = []
    for phase in run.phases.values():  # the scored phases: no extended phase belongs to a family
        family = _family(phase.name)
        if family is None:
            continue
        found = (
            _ior_config(run, phase, family) if family in IOR_CONFIG else _mdtest_config(run, phase, family)
        )
        found = found or _api_config(run, phase, family)
        if found is not None:
            findings.append(found)
    return findings


# io500.sh's variables that go into the commands as a number, and the option they become. The
# script prints its variables as it ran with them (the "io-500-summary" dump); the io500.sh file in
# an archive may be a later edit, so only the dump is compared.
SHELL_NUMBERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("io500_ior_hard_writes_per_proc", "-s", ("ior-hard-write", "ior-hard-read")),
    (
        "io500_mdtest_easy_files_per_proc",
        "-n",
        ("mdtest-easy-write", "mdtest-easy-stat", "mdtest-easy-delete"),
    ),
    (
        "io500_mdtest_hard_files_per_proc",
        "-n",
        ("mdtest-hard-write", "mdtest-hard-stat", "mdtest-hard-read", "mdtest-hard-delete"),
    ),
    ("io500_stonewall_timer", "-D", ("ior-easy-write", "ior-hard-write")),
    ("io500_stonewall_timer", "-W", ("mdtest-easy-write", "mdtest-hard-write")),
)
SHELL_DUMP = "io-500-summary"


def _shell_config_rules(run: RunResult) -> list[Finding]:
    dump = run.config.get(SHELL_DUMP)
    if not dump:
        return []
    source = "the printout of its variables io500.sh made as it ran"
    findings: list[Finding] = []
    for variable, option, names in SHELL_NUMBERS:
        configured = dump.get(variable, "").strip()
        if not configured.isdigit():
            continue  # unset, or an expression the dump did not expand
        for name in names:
            phase = run.phases.get(name)
            if phase is None:
                continue
            for command in _commands(phase, _recorded_as(run)):
                used = CommandLine.parse(command.text).value(option)
                if used is not None and option_number(used) != option_number(configured):
                    findings.append(
                        finding(
                            "options-config-mismatch",
                            phase=name,
                            where=command.where,
                            source=source,
                            key=variable,
                            configured=configured,
                            used=f"{option} {used}",
                        )
                    )
                    break
    findings.extend(_shell_easy_params(run, dump.get("io500_ior_easy_params", ""), source))
    return findings


def _shell_easy_params(run: RunResult, easy: str, source: str) -> list[Finding]:
    """io500_ior_easy_params goes into both ior-easy commands as written: its transfer size,
    block size and file-per-process must be theirs."""
    if not easy or "$" in easy:
        return []
    wanted = ior_parameters("ior " + easy)
    findings: list[Finding] = []
    for name in ("ior-easy-write", "ior-easy-read"):
        phase = run.phases.get(name)
        if phase is None:
            continue
        for command in _commands(phase, _recorded_as(run)):
            given = ior_parameters(command.text)
            differs = [
                key
                for key in ("transferSize", "blockSize", "filePerProc")
                if key in wanted
                and parameter_number(key, wanted[key])
                != parameter_number(key, given.get(key, IOR_DEFAULTS[key]))
            ]
            if differs:
                findings.append(
                    finding(
                        "options-config-mismatch",
                        phase=name,
                        where=command.where,
                        source=source,
                        key="io500_ior_easy_params",
                        configured=easy,
                        used=f"{_OPTION_OF[differs[0]]} {given.get(differs[0], 'not given')}",
                    )
                )
                break
    return findings


# --- 3. the cache defeats ---------------------------------------------------------------------------
# io500 added mdtest -Y (sync after the create phase) on 2020-05-28; every tagged C release has it.
MDTEST_SYNC_SINCE = dt.date(2020, 5, 28)
IOR_DEFEATS: tuple[tuple[str, str | None, str], ...] = (
    ("-C", None, "reorders the tasks so that another node reads the data back, not the writer's cache"),
    ("-Q", "1", "shifts the reading tasks by one node, away from the cache of the writing one"),
    ("-e", None, "fsyncs the file when it is closed, so the time includes the flush to storage"),
    ("-g", None, "puts barriers around open, transfer and close, so the slowest rank is timed"),
)
MDTEST_DEFEATS: tuple[tuple[str, str | None, str], ...] = (
    ("-N", "1", "makes a rank on another node stat, read and delete the files, not their cached creator"),
    ("-F", None, "creates files only, so no directories are counted as items"),
)
MDTEST_SYNC = ("-Y", None, "syncs after creating, so the create time includes the flush to storage")


def _missing(cmd: CommandLine, option: str, value: str | None) -> str | None:
    """How the command fails `option` (with `value`), or None when it has it."""
    if value is None:
        return None if cmd.has_flag(option) else f"no {option}"
    given = cmd.value(option)
    if given is None:
        glued = [token[2:] for token in cmd.tokens if token.startswith(option) and len(token) > 2]
        given = glued[-1] if glued else None
    if given == value:
        return None
    return f"no {option} {value}" if given is None else f"{option} {given}"


def _defeats(run: RunResult, phase: Phase) -> tuple[tuple[str, str | None, str], ...]:
    if phase.name.startswith(("ior-easy-", "ior-hard-")):
        return IOR_DEFEATS
    if not phase.name.startswith(("mdtest-easy-", "mdtest-hard-")):
        return ()
    date = run_date(run)
    if run.era.is_shell:
        # The script passed mdtest -N 1 from September 2019 on (with -X); before, it did not.
        if date is None or date < SHELL_MDTEST_VERIFY_SINCE:
            return tuple(defeat for defeat in MDTEST_DEFEATS if defeat[0] != "-N")
        return MDTEST_DEFEATS
    if phase.name.endswith("-write") and (date is None or date >= MDTEST_SYNC_SINCE):
        return (*MDTEST_DEFEATS, MDTEST_SYNC)
    return MDTEST_DEFEATS


def _defeat_severity(run: RunResult, option: str) -> str:
    """The C application always passes every defeat: an error. The shell script's fixed part
    passed IOR's -C -Q 1 -e -g and mdtest's -F in every real run of both corpora (196 runs);
    mdtest -N 1 came to the script in September 2019 and one honest run of November 2019 still
    ran the older script, so its absence there is a warning for the committee."""
    if run.era.is_shell and option == "-N":
        return "options-cache-defeat-script"
    return "options-cache-defeat-missing"


def defeat_rules(run: RunResult) -> list[Finding]:
    findings: list[Finding] = []
    for phase in run.phases.values():  # the scored phases; extended ones have their own options
        defeats = _defeats(run, phase)
        if not defeats:
            continue
        for command in _commands(phase, _recorded_as(run)):
            cmd = CommandLine.parse(command.text)
            missing = [
                (option, value, gap, why)
                for option, value, why in defeats
                if (gap := _missing(cmd, option, value))
            ]
            if missing:
                for option, value, gap, why in missing:
                    findings.append(
                        finding(
                            _defeat_severity(run, option),
                            phase=phase.name,
                            where=command.where,
                            found=gap,
                            option=option if value is None else f"{option} {value}",
                            why=why,
                        )
                    )
                break  # one command's gaps are enough; the other is the same command or mismatched
    return findings


def options_rules(run: RunResult) -> list[Finding]:
    return [*echo_rules(run), *config_rules(run), *defeat_rules(run)]
