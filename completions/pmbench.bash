# bash completion for pmbench. Written by pmbench-gendoc from src/cli/options.c
# and commands.c: do not edit; regenerate it with 'build/pmbench-gendoc write .'

_pmbench_words()
{
	local pre= word=$cur
	if [[ $2 == list && $word == *,* ]]; then
		pre=${word%,*},
		word=${word##*,}
	fi
	COMPREPLY=($(compgen -P "$pre" -W "$1" -- "$word"))
}

_pmbench_files()
{
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen "$1" -- "$cur"))
}

_pmbench()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd= opts i

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--cache-dir | --fixtures-dir) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	case "$cmd $prev" in
	" --cache-dir")
		_pmbench_files -d
		return
		;;
	" --fixtures-dir")
		_pmbench_files -d
		return
		;;
	"bench --base")
		COMPREPLY=()
		return
		;;
	"bench --baseline")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline'
		return
		;;
	"bench --budget")
		COMPREPLY=()
		return
		;;
	"bench --columns")
		_pmbench_words 'pm median median_ci95 mean min runs outliers user system max_rss tree_rss node_modules phases ratio baseline_ratio paired_ratio pm_version' list
		return
		;;
	"bench --edits")
		COMPREPLY=()
		return
		;;
	"bench --env")
		COMPREPLY=()
		return
		;;
	"bench --format" | "bench -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"bench --head")
		COMPREPLY=()
		return
		;;
	"bench --link")
		COMPREPLY=()
		return
		;;
	"bench --max-runs")
		COMPREPLY=()
		return
		;;
	"bench --node")
		_pmbench_words 'system'
		return
		;;
	"bench --out" | "bench -o")
		_pmbench_files -f
		return
		;;
	"bench --pm")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline' list
		return
		;;
	"bench --pm-config")
		_pmbench_words 'user defaults'
		return
		;;
	"bench --probe")
		COMPREPLY=()
		return
		;;
	"bench --registry")
		_pmbench_words 'local live'
		return
		;;
	"bench --report")
		_pmbench_files -f
		return
		;;
	"bench --runs")
		_pmbench_words 'auto'
		return
		;;
	"bench --scenario")
		_pmbench_words 'all default clean cache lockfile node_modules cache+lockfile cache+node_modules lockfile+node_modules cache+lockfile+node_modules' list
		return
		;;
	"bench --scripts")
		_pmbench_words 'default none all'
		return
		;;
	"bench --seed")
		COMPREPLY=()
		return
		;;
	"bench --shard")
		COMPREPLY=()
		return
		;;
	"bench --target")
		COMPREPLY=()
		return
		;;
	"bench --task")
		_pmbench_words 'install run build test lint dev hmr resolve update' list
		return
		;;
	"bench --time-budget")
		COMPREPLY=()
		return
		;;
	"bench --timeout")
		COMPREPLY=()
		return
		;;
	"bench --warmup")
		COMPREPLY=()
		return
		;;
	"pms --versions")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno'
		return
		;;
	"migrate --baseline")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline'
		return
		;;
	"migrate --budget")
		COMPREPLY=()
		return
		;;
	"migrate --choose")
		_pmbench_words 'link-workspace-packages workspace-protocol' list
		return
		;;
	"migrate --columns")
		_pmbench_words 'pm median median_ci95 mean min runs outliers user system max_rss tree_rss node_modules phases ratio baseline_ratio paired_ratio pm_version' list
		return
		;;
	"migrate --env")
		COMPREPLY=()
		return
		;;
	"migrate --format" | "migrate -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"migrate --from")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline'
		return
		;;
	"migrate --link")
		COMPREPLY=()
		return
		;;
	"migrate --markdown")
		_pmbench_files -f
		return
		;;
	"migrate --max-runs")
		COMPREPLY=()
		return
		;;
	"migrate --node")
		_pmbench_words 'system'
		return
		;;
	"migrate --out" | "migrate -o")
		_pmbench_files -f
		return
		;;
	"migrate --pm-config")
		_pmbench_words 'user defaults'
		return
		;;
	"migrate --registry")
		_pmbench_words 'local live'
		return
		;;
	"migrate --report")
		_pmbench_files -f
		return
		;;
	"migrate --runs")
		_pmbench_words 'auto'
		return
		;;
	"migrate --scenario")
		_pmbench_words 'all default clean cache lockfile node_modules cache+lockfile cache+node_modules lockfile+node_modules cache+lockfile+node_modules' list
		return
		;;
	"migrate --scripts")
		_pmbench_words 'default none all'
		return
		;;
	"migrate --seed")
		COMPREPLY=()
		return
		;;
	"migrate --target")
		COMPREPLY=()
		return
		;;
	"migrate --task")
		_pmbench_words 'install run build test lint dev hmr resolve update' list
		return
		;;
	"migrate --timeout")
		COMPREPLY=()
		return
		;;
	"migrate --to")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline' list
		return
		;;
	"migrate --warmup")
		COMPREPLY=()
		return
		;;
	"report --columns")
		_pmbench_words 'pm median median_ci95 mean min runs outliers user system max_rss tree_rss node_modules phases ratio baseline_ratio paired_ratio pm_version' list
		return
		;;
	"report --format" | "report -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"report --out" | "report -o")
		_pmbench_files -f
		return
		;;
	"report --report")
		_pmbench_files -f
		return
		;;
	"compare --columns")
		_pmbench_words 'pm median median_ci95 mean min runs outliers user system max_rss tree_rss node_modules phases ratio baseline_ratio paired_ratio pm_version' list
		return
		;;
	"compare --format" | "compare -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"compare --out" | "compare -o")
		_pmbench_files -f
		return
		;;
	"compare --report")
		_pmbench_files -f
		return
		;;
	"claim --baseline")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline'
		return
		;;
	"claim --budget")
		COMPREPLY=()
		return
		;;
	"claim --columns")
		_pmbench_words 'pm median median_ci95 mean min runs outliers user system max_rss tree_rss node_modules phases ratio baseline_ratio paired_ratio pm_version' list
		return
		;;
	"claim --format" | "claim -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"claim --from")
		_pmbench_files -f
		return
		;;
	"claim --link")
		COMPREPLY=()
		return
		;;
	"claim --max-runs")
		COMPREPLY=()
		return
		;;
	"claim --node")
		_pmbench_words 'system'
		return
		;;
	"claim --out" | "claim -o")
		_pmbench_files -f
		return
		;;
	"claim --pm-config")
		_pmbench_words 'user defaults'
		return
		;;
	"claim --registry")
		_pmbench_words 'local live'
		return
		;;
	"claim --report")
		_pmbench_files -f
		return
		;;
	"claim --runs")
		_pmbench_words 'auto'
		return
		;;
	"claim --scenario")
		_pmbench_words 'all default clean cache lockfile node_modules cache+lockfile cache+node_modules lockfile+node_modules cache+lockfile+node_modules' list
		return
		;;
	"claim --scripts")
		_pmbench_words 'default none all'
		return
		;;
	"claim --seed")
		COMPREPLY=()
		return
		;;
	"claim --target")
		COMPREPLY=()
		return
		;;
	"claim --time-budget")
		COMPREPLY=()
		return
		;;
	"claim --timeout")
		COMPREPLY=()
		return
		;;
	"claim --tolerance")
		COMPREPLY=()
		return
		;;
	"claim --warmup")
		COMPREPLY=()
		return
		;;
	"ci-cache --archiver")
		_pmbench_words 'libarchive gnu-tar'
		return
		;;
	"ci-cache --bandwidth")
		COMPREPLY=()
		return
		;;
	"ci-cache --budget")
		COMPREPLY=()
		return
		;;
	"ci-cache --columns")
		_pmbench_words 'pm median median_ci95 mean min runs outliers user system max_rss tree_rss node_modules phases ratio baseline_ratio paired_ratio pm_version' list
		return
		;;
	"ci-cache --compression")
		_pmbench_words 'none gzip zstd' list
		return
		;;
	"ci-cache --env")
		COMPREPLY=()
		return
		;;
	"ci-cache --format" | "ci-cache -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"ci-cache --link")
		COMPREPLY=()
		return
		;;
	"ci-cache --max-runs")
		COMPREPLY=()
		return
		;;
	"ci-cache --out" | "ci-cache -o")
		_pmbench_files -f
		return
		;;
	"ci-cache --pm")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline' list
		return
		;;
	"ci-cache --registry")
		_pmbench_words 'local live'
		return
		;;
	"ci-cache --report")
		_pmbench_files -f
		return
		;;
	"ci-cache --runs")
		COMPREPLY=()
		return
		;;
	"ci-cache --scripts")
		_pmbench_words 'default none all'
		return
		;;
	"ci-cache --strategy")
		_pmbench_words 'none store node_modules store+node_modules toolchain store+toolchain store+node_modules+toolchain' list
		return
		;;
	"ci-cache --target")
		COMPREPLY=()
		return
		;;
	"ci-cache --timeout")
		COMPREPLY=()
		return
		;;
	"merge --out" | "merge -o")
		_pmbench_files -f
		return
		;;
	"merge --seed")
		COMPREPLY=()
		return
		;;
	"history --format" | "history -f")
		_pmbench_words 'table markdown csv json hyperfine github-action-benchmark bencher html svg'
		return
		;;
	"history --out" | "history -o")
		_pmbench_files -f
		return
		;;
	"history --report")
		_pmbench_files -f
		return
		;;
	"workflow --baseline")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline'
		return
		;;
	"workflow --budget")
		COMPREPLY=()
		return
		;;
	"workflow --container")
		COMPREPLY=()
		return
		;;
	"workflow --cron")
		COMPREPLY=()
		return
		;;
	"workflow --edits")
		COMPREPLY=()
		return
		;;
	"workflow --env")
		COMPREPLY=()
		return
		;;
	"workflow --history-dir")
		_pmbench_files -d
		return
		;;
	"workflow --job-timeout")
		COMPREPLY=()
		return
		;;
	"workflow --link")
		COMPREPLY=()
		return
		;;
	"workflow --max-runs")
		COMPREPLY=()
		return
		;;
	"workflow --node")
		_pmbench_words 'system'
		return
		;;
	"workflow --pm")
		_pmbench_words 'npm yarn yarn-berry pnpm bun deno yarn-berry:pnp yarn-berry:pnpm npm:linked pnpm:hoisted bun:isolated bun:runtime npm:prefer-offline' list
		return
		;;
	"workflow --pm-config")
		_pmbench_words 'user defaults'
		return
		;;
	"workflow --pmbench-repo")
		COMPREPLY=()
		return
		;;
	"workflow --probe")
		COMPREPLY=()
		return
		;;
	"workflow --registry")
		_pmbench_words 'local live'
		return
		;;
	"workflow --runner")
		COMPREPLY=()
		return
		;;
	"workflow --runs")
		_pmbench_words 'auto'
		return
		;;
	"workflow --scenario")
		_pmbench_words 'all default clean cache lockfile node_modules cache+lockfile cache+node_modules lockfile+node_modules cache+lockfile+node_modules' list
		return
		;;
	"workflow --scripts")
		_pmbench_words 'default none all'
		return
		;;
	"workflow --seed")
		COMPREPLY=()
		return
		;;
	"workflow --shards")
		COMPREPLY=()
		return
		;;
	"workflow --target")
		COMPREPLY=()
		return
		;;
	"workflow --task")
		_pmbench_words 'install run build test lint dev hmr resolve update' list
		return
		;;
	"workflow --time-budget")
		COMPREPLY=()
		return
		;;
	"workflow --timeout")
		COMPREPLY=()
		return
		;;
	"workflow --warmup")
		COMPREPLY=()
		return
		;;
	esac
	case $cmd in
	"")
		opts='--cache-dir --fixtures-dir --help -h --version'
		if [[ $cur != -* ]]; then
			_pmbench_words 'bench fixtures pms migrate report compare claim ci-cache merge history wait workflow help'
			return
		fi
		;;
	help)
		_pmbench_words 'bench fixtures pms migrate report compare claim ci-cache merge history wait workflow help'
		return
		;;
	bench)
		opts='--base --baseline --budget --ci --columns --dry-run --edits --env --explain --format -f --head --help -h --link --max-runs --no-control --no-fs-wait --no-progress --node --out -o --pm --pm-config --probe --progress --prove-offline --registry --report --runs --scenario --scripts --seed --shard --target --task --time-budget --timeout --warmup --wide'
		;;
	fixtures)
		opts='--help -h'
		;;
	pms)
		opts='--help -h --versions'
		;;
	migrate)
		opts='--baseline --budget --choose --ci --columns --env --format -f --from --help -h --link --markdown --max-runs --no-fs-wait --no-progress --no-recipe --node --out -o --pm-config --progress --registry --report --runs --scenario --scripts --seed --target --task --time-source --timeout --to --warmup --wide'
		;;
	report)
		opts='--columns --format -f --help -h --out -o --report --wide'
		;;
	compare)
		opts='--columns --format -f --help -h --out -o --report --wide'
		;;
	claim)
		opts='--baseline --budget --ci --columns --format -f --from --help -h --link --max-runs --no-fs-wait --no-progress --node --out -o --pm-config --progress --prove-offline --registry --report --runs --scenario --scripts --seed --target --time-budget --timeout --tolerance --warmup --wide'
		;;
	ci-cache)
		opts='--archiver --bandwidth --budget --columns --compression --env --format -f --help -h --link --max-runs --no-ci --no-fs-wait --no-lockfile-change --no-progress --out -o --pm --progress --registry --report --runs --scripts --strategy --target --timeout --wide'
		;;
	merge)
		opts='--help -h --out -o --seed'
		;;
	history)
		opts='--format -f --help -h --out -o --report'
		;;
	wait)
		opts='--help -h'
		;;
	workflow)
		opts='--baseline --budget --ci --container --cron --edits --env --help -h --history-dir --job-timeout --link --max-runs --no-control --no-fs-wait --node --pm --pm-config --pm-matrix --pmbench-repo --probe --pull-request --registry --runner --runs --scenario --scripts --seed --shards --target --task --time-budget --timeout --warmup'
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	elif [[ $cmd == workflow && $prev == workflow ]]; then
		COMPREPLY=($(compgen -W github-actions -- "$cur"))
	else
		_pmbench_files -f
	fi
}

complete -F _pmbench pmbench
