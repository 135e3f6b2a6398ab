"""Every finding code the scoring engine emits, the rules' findings and the readers' notes, with
its severity and message template, in one table.

Codes are stable identifiers: the registry stores them, reviewers filter on them and the API
publishes them, so a code is never renamed; a new check gets a new code. Severity:
error = the run is invalid, warning = the committee must look at it, info = a fact worth showing.
Templates are `str.format` strings; every placeholder must be supplied by the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.model import Finding, Severity

ERROR = Severity.ERROR
WARNING = Severity.WARNING
INFO = Severity.INFO


@dataclass(frozen=True)
class Code:
    severity: Severity
    template: str


# The template of every read note: the reader writes the message, naming the file and the value.
READ_NOTE = "{message}"

CODES: dict[str, Code] = {
    # --- phases present and positive (rules/stonewall.py) ---
    "phase-missing": Code(
        ERROR,
        "The phase {phase} has no result. All 12 scored phases must run and report a value.",
    ),
    "phase-nonpositive": Code(
        ERROR,
        "{phase} reports {value} {unit}. Every scored phase must report a value above zero; "
        "a zero usually means the phase was skipped or failed.",
    ),
    "phase-time-missing": Code(
        WARNING,
        "{phase} has no printed runtime, so the 300-second rule cannot be checked for it.",
    ),
    "write-phase-short": Code(
        ERROR,
        "{phase} ran for {time_s:.1f} s. Every write and create phase must run for at least 300 s "
        "(raise its size parameter so the stonewall, not the data, ends the phase).",
    ),
    # --- configuration (rules/stonewall.py) ---
    "stonewall-time-not-300": Code(
        ERROR,
        "[debug] stonewall-time is {value} in {source}; the rules require 300.",
    ),
    "pause-dir-set": Code(
        ERROR,
        "[debug] pause-dir is set to '{value}' in {source}; pausing between phases is a debug "
        "option that invalidates the run.",
    ),
    "files-per-dir-set": Code(
        ERROR,
        "[mdtest-hard] files-per-dir is set to '{value}' in {source}; mdtest-hard must create "
        "all files in one directory.",
    ),
    "scc-mode": Code(
        WARNING,
        "[global] scc = TRUE in {source}: Student Cluster Competition mode, which lowers the "
        "application's own minimum write time to 30 s. Regular lists need scc = FALSE.",
    ),
    # --- invalid markers and error comments (rules/markers.py) ---
    "invalid-marker": Code(
        ERROR,
        "{where} carries the invalid marker '{marker}': the benchmark itself judged the run invalid.",
    ),
    "result-error-comment": Code(
        ERROR,
        "result.txt reports '; ERROR {message}' in {where}: the benchmark found a rule violation.",
    ),
    "tool-errors": Code(
        ERROR,
        "{tool} reported {count} error(s) during {phase} (data verification or I/O errors); "
        "this invalidates the run.",
    ),
    "optional-phase-invalid": Code(
        WARNING,
        "The unscored phase {phase} carries {detail}. It does not change the ranked score, but "
        "the committee should know.",
    ),
    # --- fixed parameters in command lines (rules/params.py) ---
    "ior-hard-params": Code(
        ERROR,
        "The {phase} command must write 47008-byte transfers into one shared file "
        "(-t 47008 -b 47008, no -F); found {found}.",
    ),
    "mdtest-hard-params": Code(
        ERROR,
        "The {phase} command must use 3901-byte files in one shared directory "
        "(-w 3901 -e 3901, no -u or -I); found {found}.",
    ),
    "stonewall-disabled": Code(
        WARNING,
        "The {phase} command has {found}: the script's stonewall (io500_stonewall_timer) was off, "
        "so writing was not stopped at 300 s. Allowed by the script of this era; the 300 s "
        "minimum is checked on the phase time.",
    ),
    "mdtest-hard-files-per-dir": Code(
        WARNING,
        "The {phase} command spreads its files over directories ({found}). This version of the "
        "benchmark allowed it, but mdtest-hard is defined as one shared directory (from io500-sc21 "
        "on it invalidates the run); the committee must accept it.",
    ),
    "stonewall-options": Code(
        ERROR,
        "The {phase} command must stop writing after 300 s ({expected}); found {found}.",
    ),
    "read-verify-missing": Code(
        ERROR,
        "The {phase} command lacks {option}, so the data read back was not verified; "
        "the application always passes it.",
    ),
    "seed-mismatch": Code(
        ERROR,
        "The {phase} command uses the seed -G {found}, but a run started at {timestamp} derives "
        "-G {expected}. The command line or the result directory name was changed after the run.",
    ),
    # --- run tokens (scoring/tokens.py): the run against the token its result directory names ---
    "token-directory-mismatch": Code(
        ERROR,
        "The run names the run token {token}, but {where} is '{name}'. The official application "
        "names the result directory after --timestamp; a renamed directory no longer matches its seeds.",
    ),
    "token-seed-mismatch": Code(
        ERROR,
        "The {phase} command in {where} uses the seed -G {found}, but a run made with "
        "--timestamp=<its run token> derives -G {expected}. The run was made with another timestamp, "
        "or its files were edited.",
    ),
    "token-seeds-missing": Code(
        ERROR,
        "The run names the run token {token}, but no phase's command line prints its -G seed, so the "
        "run cannot be tied to the token. Upload the result directory as the application wrote it.",
    ),
    "token-start-unknown": Code(
        ERROR,
        "The run names the run token {token}, but result.txt records no t_start, so it cannot be "
        "shown that the run started while the token was valid.",
    ),
    "token-started-before-issue": Code(
        ERROR,
        "The first phase started at {started} (local time), more than the widest time-zone offset "
        "before the run token was issued ({issued} UTC). A run cannot use a token before it exists.",
    ),
    "token-started-after-expiry": Code(
        ERROR,
        "The first phase started at {started} (local time), more than the widest time-zone offset "
        "after the run token expired ({expires} UTC). Ask for a new token and run again.",
    ),
    "version-dev-build": Code(
        WARNING,
        "The benchmark version '{version}' is {ahead} commit(s) past the tag {tag} (a development "
        "build); the committee must accept it.",
    ),
    "version-dirty": Code(
        WARNING,
        "The benchmark version '{version}' ends in -{lines}: the source was modified by {lines} "
        "line(s) of diff. The rules require a committee exception for modified source.",
    ),
    "version-empty": Code(
        WARNING,
        "The benchmark printed an empty version: it was built outside a git checkout, so which "
        "release it is cannot be checked.",
    ),
    "version-bundled-runner": Code(
        INFO,
        "The run was made with the registry's bundled runner ({version}), not the official IO500 "
        "application. Its phases follow the official ones (runner/README.md), but IO500's rules ask list "
        "submissions to use the official release: which lists of a release take such runs is the "
        "committee's rule for that release.",
    ),
    "version-unrecognised": Code(
        WARNING,
        "The benchmark version '{version}' is not an IO500 release tag (io500-...).",
    ),
    # --- options as run (rules/options.py) ---
    "options-echo-mismatch": Code(
        ERROR,
        "{tool} printed in {file} that {phase} ran with {name} = {echoed}, but its command line "
        "says {commanded}: the command line was changed after the run.",
    ),
    "options-echo-unscored": Code(
        WARNING,
        "{tool} printed in {file} that the unscored phase {phase} ran with {name} = {echoed}, but "
        "its command line says {commanded}.",
    ),
    "options-config-mismatch": Code(
        ERROR,
        "The {phase} command in {where} ran with {used}, but {source} sets {key} = {configured}; "
        "the benchmark builds its commands from that setting, so command and configuration "
        "belong to different runs or one was edited.",
    ),
    "options-cache-defeat-missing": Code(
        ERROR,
        "The {phase} command in {where} lacks {option} ({found}), which the benchmark always passes: "
        "it {why}.",
    ),
    "options-cache-defeat-script": Code(
        WARNING,
        "The {phase} command in {where} lacks {option} ({found}), which the io500.sh of that time "
        "passed: it {why}. An older or edited script ran; the committee should check the result "
        "was not served from a cache.",
    ),
    # --- find (rules/find.py) ---
    "find-nothing-found": Code(
        ERROR,
        "find matched {found} files; it must find the files created by mdtest-hard.",
    ),
    "find-zero-matches-shell": Code(
        WARNING,
        "find matched 0 of {total} files. The script of this era accepted that, but a find that "
        "matches nothing did not search for the mdtest-hard files; check the find command.",
    ),
    "find-rate-mismatch": Code(
        ERROR,
        "find reports {value:.6f} kIOPS, but {total_files:.0f} scanned files in {time_s:.4f} s "
        "give {expected:.6f} kIOPS.",
    ),
    # --- score (rules/score.py) ---
    "score-missing": Code(
        ERROR,
        "No score line was found, so the claimed score cannot be compared with the phase values.",
    ),
    "score-not-printed": Code(
        INFO,
        "This output format prints no score; the score shown is the one recomputed from the phases.",
    ),
    "score-mismatch": Code(
        ERROR,
        "The claimed score {claimed} differs from {computed:.6f}, the square root of BW x MD "
        "recomputed from the phase values (allowed difference {tolerance:.2g}).",
    ),
    "bw-mismatch": Code(
        ERROR,
        "The claimed bandwidth {claimed} GiB/s differs from {computed:.6f} GiB/s, the geometric "
        "mean of the four ior phases (allowed difference {tolerance:.2g}).",
    ),
    "md-mismatch": Code(
        ERROR,
        "The claimed metadata rate {claimed} kIOPS differs from {computed:.6f} kIOPS, the geometric "
        "mean of the eight metadata phases (allowed difference {tolerance:.2g}).",
    ),
    "sc17-product-total": Code(
        INFO,
        "TOTAL {claimed} is BW x MD, as the SC17 script printed it; the IO500 score is the "
        "square root, {computed:.6f}, and that is what is ranked.",
    ),
    "zero-phases-skipped": Code(
        INFO,
        "This version leaves phases with a value of zero out of the means; {count} phase(s) "
        "were left out of {group}.",
    ),
    "bw-rnd4k-dev-build": Code(
        WARNING,
        "The claimed bandwidth {claimed} GiB/s averages ior-rnd4K-easy-read in with the four ior "
        "phases, as the development builds io500-sc24_v1-2 to -9 wrongly did; the registry ranks "
        "the four-phase bandwidth {computed:.6f} GiB/s and the score recomputed from it.",
    ),
    "extended-score-mismatch": Code(
        WARNING,
        "The extended score [SCOREX] {claimed} differs from {computed:.6f} recomputed from the "
        "standard and extended phases (allowed difference {tolerance:.2g}).",
    ),
    # --- integrity hashes (rules/hashes.py) ---
    # The hashes are the application's public 32-bit checksums: anyone can recompute them after an
    # edit, so they catch accidental changes, never deliberate ones. The messages say so; whether
    # the numbers are genuine is judged from the tools' own output (rules/evidence.py).
    "score-hash-verified": Code(
        INFO,
        "The score hash {stored} in result.txt matches the printed scores: they were not changed by "
        "accident since the run. It is a checksum anyone can recompute, not proof that the numbers "
        "are genuine.",
    ),
    "score-hash-legacy": Code(
        INFO,
        "The score hash {stored} matches the way the pre-release io500-isc21_v1 computed it "
        "(without MD and BW), so this build, which names no release tag, is that source or one "
        "before its fix. The hash guards against accidental edits only.",
    ),
    "score-hash-invalid-run": Code(
        ERROR,
        "The score hash {stored} matches only with 'valid = NO' mixed in: the benchmark itself "
        "recorded this run as invalid.",
    ),
    "score-hash-mismatch": Code(
        ERROR,
        "The score hash in result.txt is {stored}, but the printed phase scores, MD, BW and SCORE "
        "give the checksum {expected}: the values were changed after the run, by accident or by hand.",
    ),
    "score-hash-absent": Code(
        WARNING,
        "{reason} so the printed scores cannot be checked for accidental changes.",
    ),
    "extended-hash-mismatch": Code(
        WARNING,
        "The [SCOREX] hash is {stored}, but the extended scores give the checksum {expected}: they "
        "were changed after the run.",
    ),
    "config-hash-verified": Code(
        INFO,
        "The config hash {stored} matches {source}: the file was not changed by accident since the "
        "run (a checksum anyone can recompute, not proof of authenticity).",
    ),
    "config-hash-mismatch": Code(
        ERROR,
        "The config hash in result.txt is {stored}, but {source} gives the checksum {expected}; the "
        "configuration file was changed after the run.",
    ),
    "config-hash-explained": Code(
        WARNING,
        "The config hash in result.txt is {stored}, but {source} gives the checksum {expected}. {reason}",
    ),
    "config-hash-absent": Code(
        WARNING,
        "{reason} so the configuration file cannot be checked for accidental changes.",
    ),
    # --- evidence: the summary re-derived from the tools' own output (rules/evidence.py) ---
    "evidence-file-missing": Code(
        ERROR,
        "{file} is missing. The IO500 application writes it into every result directory and it "
        "carries {what}; a run of this version is not valid without it.",
    ),
    "evidence-file-not-regular": Code(
        ERROR,
        "{file} is a {kind}, not the regular file the IO500 application writes; it carries {what}, "
        "and a run of this version is not valid without it.",
    ),
    "evidence-file-unusable": Code(
        ERROR,
        "{file} is in the archive but {reason}, so it is no evidence of the run; a run of this "
        "version is not valid without it.",
    ),
    "evidence-value-mismatch": Code(
        ERROR,
        "{phase} is {value} {unit} in {source}, but the phase's own {tool} output {raw_file} gives "
        "{raw_value} {unit} (its printed figures allow {low} to {high}): the summary does not come "
        "from this output.",
    ),
    "evidence-rank-mismatch": Code(
        ERROR,
        "{phase} is {value} {unit} in {source}, but its per-rank file {rank_file} gives {rank_value} "
        "{unit} ({how}).",
    ),
    "evidence-count-mismatch": Code(
        ERROR,
        "{phase}: {source} reports {key} = {claimed:.0f}, but {raw_file} adds up to {counted:.0f}.",
    ),
    "evidence-clock-mismatch": Code(
        ERROR,
        "{raw_file} says {tool} ran {phase} from {started} to {finished}, outside the phase's "
        "t_start {start} and t_end {end} in result.txt: the output comes from another run.",
    ),
    "evidence-clock-order": Code(
        ERROR,
        "{raw_file} says {phase} began at {started}, before {previous} had ended ({finished} in "
        "{previous_file}): the raw outputs are not one run's phases in their order.",
    ),
    "evidence-runtime-mismatch": Code(
        ERROR,
        "{phase} took {claimed} s by {source}, but {other} says {actual} s.",
    ),
    "evidence-runtime-gap": Code(
        WARNING,
        "{phase} lasted {wall:.0f} s from t_start to t_end but its timer says t_delta = {t_delta:.4f} s: "
        "{gap:.1f} s passed outside the timer (a stalled console or file system while the "
        "application printed, or a clock step). The run is not invalid for it; the committee may ask why.",
    ),
    "evidence-tool-outlasts-phase": Code(
        ERROR,
        "{raw_file} says {tool} ran {what} s, longer than the {limit} s {bound} allows "
        "(with {slack:.1f} s for whole-second clocks and timer drift): the phase's times were edited.",
    ),
    "evidence-phase-overlap": Code(
        ERROR,
        "result.txt says {phase} started at {start}, before {previous} ended at {end}: the "
        "application runs its phases one after the other, so a phase's clocks were edited.",
    ),
    "evidence-tool-contradiction": Code(
        ERROR,
        "{raw_file}, the {tool} output of {phase}, contradicts itself: {detail}. A tool prints "
        "every figure from the same measurement, so the file was edited.",
    ),
    "evidence-stonewall-short": Code(
        ERROR,
        "IOR's own output {raw_file} says {phase} wrote for {time_s:.2f} s; a write phase must run "
        "for at least 300 s, and the application judges this by IOR's time.",
    ),
    "evidence-command-mismatch": Code(
        ERROR,
        "The command line in {raw_file} is not the one {source} records for {phase} (first "
        "difference: '{raw_token}' against '{recorded_token}'): the output belongs to another command.",
    ),
    "evidence-unscored-mismatch": Code(
        WARNING,
        "The unscored phase {phase} disagrees with its own output: {detail} It does not change the "
        "ranked score, but the committee should know.",
    ),
    "evidence-raw-missing": Code(
        WARNING,
        "No raw output for {phases}: the archive lacks {files}, which this version of the benchmark "
        "writes, so {these} value(s) could not be re-derived from the tools' own output.",
    ),
    "evidence-raw-unreadable": Code(
        WARNING,
        "{raw_file} holds no readable {tool} result, so the value of {phase} could not be re-derived "
        "from it.",
    ),
    "evidence-find-script": Code(
        INFO,
        "{phase} ran the external script '{script}'; the application keeps only its last output line "
        "({last_output}), so the find counts come from result.txt alone.",
    ),
    "evidence-raw-unsupported": Code(
        INFO,
        "The raw output of {phases} is not re-derived (the registry has no md-workbench reader).",
    ),
    "evidence-ranks-missing": Code(
        WARNING,
        "No per-rank CSV for {phases}; this version of the benchmark writes one per phase, so the "
        "ranks could not be added up: there the verdict rests on the tools' own outputs without "
        "per-rank evidence.",
    ),
    "evidence-ranks-empty": Code(
        WARNING,
        "{files} hold(s) no rank's row (the header only, or nothing readable): the application writes "
        "one row per rank, so these files were cut down; for {phases} the verdict rests on the tools' "
        "own outputs without per-rank evidence.",
    ),
    "evidence-clock-missing": Code(
        INFO,
        "result.txt records no t_start / t_end (verbosity 0), so the clocks of the raw outputs could "
        "not be compared with the run's.",
    ),
    "evidence-checked": Code(
        INFO,
        "{agree} of {total} phase values re-derived from the tools' own output agree with the "
        "summary{extra}.",
    ),
    # --- physics across the phases of one run (rules/physics.py) ---
    "physics-bytes-read-mismatch": Code(
        ERROR,
        "{phase} moved {read:.0f} bytes ({read_source} in {read_file}), but {write_phase} wrote "
        "{written:.0f} bytes ({write_source} in {write_file}). A read phase reads back exactly "
        "what its write phase wrote, so one of the two outputs was changed or comes from another "
        "run.",
    ),
    "physics-pairs-mismatch": Code(
        ERROR,
        "{phase} moved {moved:.0f} bytes ({source} in {raw_file}), but its stonewall says "
        "{pairs} pairs x {tasks} tasks x {transfer} bytes per transfer = {expected:.0f} bytes. "
        "With stoneWallingWearOut every rank ends at the largest pair count, so IOR cannot have "
        "written this output.",
    ),
    "physics-pairs-beyond-geometry": Code(
        ERROR,
        "{phase}: the stonewall says a rank accessed {pairs} pairs of {transfer} bytes "
        "({accessed:.0f} bytes, {raw_file}), more than its {segments} segment(s) of {block} bytes "
        "hold ({capacity:.0f}). IOR cannot access more than the blocks it was given.",
    ),
    "physics-accessed-pairs-mismatch": Code(
        ERROR,
        "{phase}: result.txt records accessed-pairs = {recorded}, but IOR's own output "
        "({raw_file}) says its stonewall reached {pairs} pairs. The application copies the count "
        "from IOR, so one of the two was changed or comes from another run.",
    ),
    "physics-items-mismatch": Code(
        ERROR,
        "{phase} handled {items:.0f} items ({how}), but {create_phase} created {created:.0f} "
        "({create_how}). Every phase of an mdtest tree works on the items its create phase made, "
        "so one of the outputs was changed or comes from another run.",
    ),
    "physics-find-excess": Code(
        ERROR,
        "find scanned {total:.0f} files, but the run's data directory can hold at most {bound:.0f}: "
        "mdtest-easy created {easy:.0f}, mdtest-hard {hard:.0f}, and IOR's files, the directories "
        "and the stonewall files of {tasks} tasks are at most {others} more. The find rate counts "
        "files this run did not create (another directory's, an earlier run's, or an edited count).",
    ),
    "physics-tasks-mismatch": Code(
        ERROR,
        "{where} counts {tasks} tasks ({source}), but the other phases ran with {other_tasks} "
        "({other_source} and the rest). All phases of one run use the same client ranks, so this "
        "output was changed or comes from another run.",
    ),
    "physics-nodes-mismatch": Code(
        ERROR,
        "{phase} ran on {nodes} client nodes ({source}), but the other phases on {other_nodes} "
        "({other_source} and the rest). All phases of one run use the same client nodes, so this "
        "output was changed or comes from another run.",
    ),
    "physics-bandwidth-volume-mismatch": Code(
        ERROR,
        "{raw_file} gives {bandwidth:.6f} GiB/s over {time_s} s, which does not multiply out to the "
        "{bytes:.0f} bytes IOR moved ({source}): the bandwidth or the time was edited.",
    ),
    "physics-items-beyond-nominal": Code(
        ERROR,
        "{phase} created {items:.0f} items by {how}, more than the {nominal} its command allows "
        "(-n per rank x tasks, as mdtest printed it): the stonewall only stops ranks early, so the "
        "rate was edited.",
    ),
    "physics-checked": Code(
        INFO,
        "{count} cross-phase comparisons hold ({kinds}).",
    ),
    # --- structure a submitter cannot use (rules/structure.py) ---
    "result-section-duplicate": Code(
        ERROR,
        "result.txt holds the section [{section}] {count} times. The IO500 application writes each "
        "section once; readers take some values from the first copy and the hash from the last, so a "
        "copy can pair an edited value with a verified hash.",
    ),
    "result-key-duplicate": Code(
        ERROR,
        "The section [{section}] of result.txt sets '{key}' {count} times. The IO500 application writes "
        "each key once; a second copy can pair an edited value with a verified hash.",
    ),
    "result-section-order": Code(
        ERROR,
        "result.txt has {section} after {previous}; the IO500 application writes its sections in "
        "the order it runs the phases, so sections were moved or added after the run.",
    ),
    "result-mode-contradicted": Code(
        ERROR,
        "result.txt says mode = {mode}, but {evidence}: the header was edited after the run (the mode "
        "decides which phases and checks apply).",
    ),
    "result-clock-unparsable": Code(
        ERROR,
        "{key} of [{phase}] in result.txt is '{value}', not {expected} as the IO500 application writes "
        "it; an unreadable clock would switch the clock checks off, so it was edited.",
    ),
    "result-clock-partial": Code(
        ERROR,
        "[{phase}] of result.txt lacks {missing}: the IO500 application writes t_start, t_delta and "
        "t_end into every phase (or, at verbosity 0, into none), so clocks were removed after the run.",
    ),
    "result-clock-absent": Code(
        WARNING,
        "result.txt records no t_start / t_delta / t_end, although config.ini sets [global] verbosity = "
        "{verbosity}, at which the IO500 application writes them; unless the run overrode the verbosity "
        "on its command line (-v=0), they were removed, and the raw outputs' clocks cannot be checked.",
    ),
    "raw-clock-unreadable": Code(
        ERROR,
        "{raw_file} holds no readable {what} ({line} line), which {tool} prints in every version: the "
        "clock was removed or edited after the run, and the phase's clocks cannot be checked.",
    ),
    "invalid-line-missing": Code(
        ERROR,
        "{evidence}; the IO500 application then writes '; ERROR INVALID {line}' into {where}, and "
        "that line is missing: the benchmark's own invalid verdict was removed after the run.",
    ),
    "scc-contradicted": Code(
        ERROR,
        "config.ini says scc = {claimed}, but {evidence}: the run was made in Student Cluster "
        "Competition mode (minimum write time 30 s), and config.ini was changed after the run.",
    ),
    "version-contradicted": Code(
        ERROR,
        "The run claims the release {version}, but its outputs contradict it: {evidence}. The version "
        "string was changed after the run (its hash recomputed); the outputs show what was built.",
    ),
    "version-ahead-of-tag": Code(
        WARNING,
        "The run claims the release {version}, but {evidence}: it is a build of later commits labelled "
        "{version} (a development build, or its version string was edited); the committee must accept "
        "it like a development build.",
    ),
    "version-tool-mismatch": Code(
        WARNING,
        "The run claims the release {version}, whose prepare.sh builds IOR and mdtest {expected}, but "
        "the outputs print {printed}: the benchmark was built with other tools than its release pins, "
        "or its version string was edited; the committee should ask which.",
    ),
    # --- which run of an archive is listed (primary.py) ---
    "primary-run-chosen": Code(
        WARNING,
        "The archive holds {count} runs. The registry lists {primary}, {why}; runs are never chosen "
        "by score. Not listed: {others}. The committee should confirm that the listed run is the one "
        "submitted.",
    ),
    # --- hints for reviewers (rules/hints.py) ---
    "read-after-write-cached": Code(
        WARNING,
        "{phase} ran at {read:.3f} GiB/s, {ratio:.1f} times the {write_phase} rate of {write:.3f} "
        "GiB/s, more than storage explains. Data may have been served from a client cache (the "
        "rank shift did not move the reads to another node).",
    ),
    "read-beyond-nodes": Code(
        WARNING,
        "{phase} ran at {per_node:.1f} GiB/s per client node ({value:.3f} GiB/s on {nodes} "
        "node(s)), more than a client network delivers; data may have been served from a cache.",
    ),
    "rank-straggler": Code(
        WARNING,
        "In {phase}, {count} of {ranks} ranks took more than {factor:.0f} times the median rank "
        "time of {median:.1f} s; the slowest, rank {rank}, took {worst:.1f} s.",
    ),
    # --- physical plausibility (rules/plausibility.py; thresholds and sources in docs/plausibility.md) ---
    "plausibility-cache": Code(
        WARNING,
        "ior-easy-write and ior-hard-write wrote {written:,.1f} GiB, {per_node:,.1f} GiB per client node "
        "on {nodes} node(s), less than the {memory:,.1f} GiB of memory each client node has "
        "({memory_source}): the data fits in the clients' memory, so the reads may have been served "
        "from a cache, not storage. IO500 expects "
        "the data written per node to exceed the node's memory (IO500/io500 issue #88) and refuses results "
        "inflated by caching; MLPerf Storage asks for data of at least 5 times the clients' memory. Write "
        "more data per node (a larger ior-easy block size).",
    ),
    "plausibility-read-above-write": Code(
        WARNING,
        "{phase} read at {read:,.2f} GiB/s, {ratio:.1f} times the {write:,.2f} GiB/s of ior-easy-write, "
        "with {per_node:,.1f} GiB per client node written, below its {memory:,.1f} GiB of memory: the "
        "reads look served from the clients' cache.",
    ),
    "plausibility-random-read": Code(
        WARNING,
        "{phase} reached {value:,.3f} {unit}, at or above the sequential ior-easy-read ({sequential:,.3f} "
        "{unit}) over the same files. No storage serves random 4 KiB reads faster than large sequential "
        "ones; the random reads were answered from a cache (IO500/io500 issues #88 and #109).",
    ),
    "plausibility-network": Code(
        ERROR,
        "{phase} reached {value:,.2f} GiB/s, but {nodes} client node(s) with {gbps:g} Gbit/s each can move "
        "at most {ceiling:,.2f} GiB/s ({gbps_source}): faster than the declared client network. The data "
        "was served from a "
        "cache on the clients, or the description declares the network (or the node count) wrongly; "
        "correct the description if the storage servers run on the client nodes.",
    ),
    "plausibility-storage": Code(
        WARNING,
        "{phase} reached {value:,.2f} GiB/s, more than the {devices} declared storage device(s) can "
        "deliver at their declared peak throughput ({ceiling:,.2f} GiB/s together): a server-side cache "
        "served it, "
        "or the description declares too few or too slow devices.",
    ),
    "plausibility-not-checked": Code(
        INFO,
        "Physical plausibility not checked: {what}. Declare it in the system description to have the "
        "run checked against it.",
    ),
    # --- read notes (scoring/readers/): things noticed while turning bytes into a RunResult ---
    # About the input itself (skipped archive members, unreadable values, duplicate copies), made by
    # `note()`, which the reader gives the whole message. A value that cannot be read is an error
    # because the run cannot be re-verified with it, a skipped extra is a warning for the reviewers,
    # a harmless fact is info.
    "read-member-unsafe": Code(WARNING, READ_NOTE),
    "read-member-link": Code(WARNING, READ_NOTE),
    "read-member-special": Code(INFO, READ_NOTE),
    "read-nodes-contradicted": Code(WARNING, READ_NOTE),
    "read-member-too-large": Code(WARNING, READ_NOTE),
    "read-nested-archive": Code(INFO, READ_NOTE),
    "read-file-binary": Code(WARNING, READ_NOTE),
    "read-file-missing": Code(INFO, READ_NOTE),
    "read-value-unreadable": Code(ERROR, READ_NOTE),
    "read-line-unreadable": Code(WARNING, READ_NOTE),
    "read-line-too-long": Code(WARNING, READ_NOTE),
    "read-duplicate-summary": Code(INFO, READ_NOTE),
    "read-summary-only": Code(WARNING, READ_NOTE),
    "read-folder-unreadable": Code(WARNING, READ_NOTE),
    "read-sources-disagree": Code(WARNING, READ_NOTE),
    "read-mixed-eras": Code(ERROR, READ_NOTE),
}


# Findings the committee sees before the others of their severity wherever findings are listed: a
# run faster than its declared client network is physically impossible as described (issue 27).
SHOWN_FIRST: frozenset[str] = frozenset({"plausibility-network"})

# A value shown in a message (a command, a version, a reason quoting a file) is text a submitter
# controls: one of a megabyte must not make a megabyte message. The longest of both real corpora is
# a few hundred characters.
MAX_SHOWN_CHARS = 2_000


def _shown(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_SHOWN_CHARS:
        return f"{value[:MAX_SHOWN_CHARS]}... ({len(value):,} characters)"
    return value


def finding(code: str, phase: str | None = None, **values: Any) -> Finding:
    """A `Finding` for `code`, its message filled from `values` (and `phase`)."""
    spec = CODES[code]
    message = spec.template.format(phase=phase, **{name: _shown(value) for name, value in values.items()})
    return Finding(code=code, severity=spec.severity, message=message, phase=phase)


def note(code: str, message: str, phase: str | None = None) -> Finding:
    """A read note: a `Finding` for `code` with the message the reader wrote (shown whole)."""
    spec = CODES[code]
    return Finding(
        code=code, severity=spec.severity, message=spec.template.format(message=message), phase=phase
    )
