# Written by voicealarm-docs from VoiceAlarm's command tables; do not edit.
_voicealarm_run() { voicealarm ${_voicealarm_data:+--data-dir "$_voicealarm_data"} "$@" 2>/dev/null; }
_voicealarm_ids() { _voicealarm_run "$1" list -q | cut -d' ' -f1; }
_voicealarm_names() {
    local name; COMPREPLY=()
    while IFS= read -r name; do [[ -n $name && $name == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$name")"); done <<< "$1"
}
_voicealarm() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="" argument=0 i word skip=0
    _voicealarm_data=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        [[ $word == --data-dir ]] && _voicealarm_data="${COMP_WORDS[i+1]/#\~/$HOME}"
        if ((skip)); then skip=0; continue; fi
        case "$word" in
            --data-dir|--sounds-dir|--scheduler|--unit-dir|--title|--voice|--device|--rate|--channels|--max-seconds|--stop-on-silence|--replace|--playlist|--at|--days|--date|--label|--snooze|--plays|--skip-holidays|--until|--name|--years|--year|--volume-floor|--sound|--ramp|--svg|--width|--poll-seconds|--max-ring-seconds|--listen|--cert|--key|--broker|--username|--password-file|--tls-ca|--client-id|--discovery-prefix|--topic-base|--pre-alarm|--out|--jobs|-j|--shard|--shards|--format|--codec|--cap|--gap|--target-lufs|--output|-o|--waveform) skip=1 ;;
            -*) ;;
            *) if [[ -z $command ]]; then command=$word; elif [[ $command != *" "* ]] && [[ " clip playlist manifesto alarm voice scheduler holidays service serve token " == *" $command "* ]]; then command="$command $word"; else ((argument++)); fi ;;
        esac
    done
    case "$prev" in
        --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --sounds-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --scheduler) COMPREPLY=($(compgen -W "embedded systemd" -- "$cur")); return ;;
        --unit-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --title) return ;;
        --voice) COMPREPLY=(); case "$command" in "alarm add") COMPREPLY=($(compgen -W "on off" -- "$cur")) ;; esac; return ;;
        --device) return ;;
        --rate) return ;;
        --channels) return ;;
        --max-seconds) return ;;
        --stop-on-silence) return ;;
        --replace) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")); return ;;
        --playlist) _voicealarm_names "$(_voicealarm_run playlist list -q)"; return ;;
        --at) return ;;
        --days) COMPREPLY=($(compgen -W "daily weekdays weekends mon tue wed thu fri sat sun mon-fri sat-sun" -- "$cur")); return ;;
        --date) return ;;
        --label) return ;;
        --snooze) return ;;
        --plays) return ;;
        --skip-holidays) COMPREPLY=(); case "$command" in "alarm edit") COMPREPLY=($(compgen -W "on off" -- "$cur")) ;; esac; return ;;
        --until) return ;;
        --name) return ;;
        --years) return ;;
        --year) return ;;
        --volume-floor) return ;;
        --sound) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --ramp) return ;;
        --svg) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --width) return ;;
        --poll-seconds) return ;;
        --max-ring-seconds) return ;;
        --listen) return ;;
        --cert) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --key) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --broker) return ;;
        --username) return ;;
        --password-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --tls-ca) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --client-id) return ;;
        --discovery-prefix) return ;;
        --topic-base) return ;;
        --pre-alarm) return ;;
        --out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --jobs|-j) return ;;
        --shard) return ;;
        --shards) return ;;
        --format) COMPREPLY=($(compgen -W "m4a caf wav aiff mp3" -- "$cur")); return ;;
        --codec) COMPREPLY=($(compgen -W "pcm ima4" -- "$cur")); return ;;
        --cap) return ;;
        --gap) return ;;
        --target-lufs) return ;;
        --output|-o) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --waveform) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    local globals="--data-dir --sounds-dir --scheduler --unit-dir --json --quiet -q --help -h --version"
    case "$command" in
        "") if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$globals" -- "$cur")); else COMPREPLY=($(compgen -W "clip devices playlist manifesto alarm voice scheduler holidays ring stop snooze listen show reconcile daemon doctor service serve token mqtt batch build render check settings repair export import help" -- "$cur")); fi ;;
        clip) COMPREPLY=($(compgen -W "import say replace rename list remove record $globals" -- "$cur")) ;;
        playlist) COMPREPLY=($(compgen -W "create add move remove delete rename show list $globals" -- "$cur")) ;;
        manifesto) COMPREPLY=($(compgen -W "set show $globals" -- "$cur")) ;;
        alarm) COMPREPLY=($(compgen -W "add list remove edit off on skip unskip $globals" -- "$cur")) ;;
        voice) COMPREPLY=($(compgen -W "on off $globals" -- "$cur")) ;;
        scheduler) COMPREPLY=($(compgen -W "list $globals" -- "$cur")) ;;
        holidays) COMPREPLY=($(compgen -W "import list remove $globals" -- "$cur")) ;;
        service) COMPREPLY=($(compgen -W "install remove status $globals" -- "$cur")) ;;
        serve) COMPREPLY=($(compgen -W "pair trust devices revoke $globals" -- "$cur")) ;;
        token) COMPREPLY=($(compgen -W "create $globals" -- "$cur")) ;;
        "clip import")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--title --salvage $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac ;;
        "clip say")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--title --voice $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
            esac ;;
        "clip replace")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")) ;;
                1) COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac ;;
        "clip rename")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")) ;;
                1) : ;;
            esac ;;
        "clip list")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "clip remove")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--force -f --yes -y $globals" -- "$cur")); return; fi
            case "$argument" in
                *) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")) ;;
            esac ;;
        "clip record")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--device --rate --channels --max-seconds --stop-on-silence --title --replace --playlist --keep $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "devices")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--playback $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "playlist create")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
                *) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")) ;;
            esac ;;
        "playlist add")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
                *) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")) ;;
            esac ;;
        "playlist move")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
                1) : ;;
                2) : ;;
            esac ;;
        "playlist remove")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
                1) : ;;
            esac ;;
        "playlist delete")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--with-alarms $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
            esac ;;
        "playlist rename")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
                1) : ;;
            esac ;;
        "playlist show")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
            esac ;;
        "playlist list")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "manifesto set")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids clip)" -- "$cur")) ;;
            esac ;;
        "manifesto show")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "alarm add")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--at --days --date --label --voice --snooze --skip-holidays $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
            esac ;;
        "alarm list")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--all -a $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "alarm remove")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                *) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "alarm edit")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--at --days --date --label --snooze --plays --skip-holidays $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "alarm off")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "alarm on")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "alarm skip")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--date --until $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "alarm unskip")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--date --all $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "voice on")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "voice off")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "scheduler list")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "holidays import")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--name --years $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
            esac ;;
        "holidays list")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--year $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "holidays remove")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
            esac ;;
        "ring")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--device --max-seconds --volume-floor --scheduled --sound --ramp $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -W "$(_voicealarm_ids alarm)" -- "$cur")) ;;
            esac ;;
        "stop")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "snooze")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--cancel $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "listen")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--device --ringtone $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)"$'\n'"$(_voicealarm_ids clip)"$'\n'"$(_voicealarm_ids alarm)" ;;
            esac ;;
        "show")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--svg --width $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)"$'\n'"$(_voicealarm_ids clip)"$'\n'"$(_voicealarm_ids alarm)" ;;
            esac ;;
        "reconcile")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "daemon")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--poll-seconds --max-ring-seconds --device --ramp $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "doctor")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "service install")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--web --mqtt --listen --cert --key --https $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "service remove")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "service status")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "serve")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--listen --cert --key --https --no-pairing $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "serve pair")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--listen --https $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "serve trust")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--remove $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "serve devices")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "serve revoke")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
            esac ;;
        "token create")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
            esac ;;
        "mqtt")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--broker --username --password-file --tls-ca --client-id --discovery-prefix --topic-base --pre-alarm --allow-anonymous-broker $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "batch")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--out --jobs -j --shard --shards --verify --format --codec --cap --gap --no-trim-silence --target-lufs --no-normalize $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac ;;
        "build")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--all --jobs -j $globals" -- "$cur")); return; fi
            case "$argument" in
                *) _voicealarm_names "manifesto"$'\n'"$(_voicealarm_run playlist list -q)" ;;
            esac ;;
        "render")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--output -o --format --codec --cap --gap --no-trim-silence --target-lufs --no-normalize --waveform $globals" -- "$cur")); return; fi
            case "$argument" in
                *) COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac ;;
        "check")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--target-lufs $globals" -- "$cur")); return; fi
            case "$argument" in
                0) COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac ;;
        "settings")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
                1) : ;;
            esac ;;
        "repair")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
            esac ;;
        "export")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
            esac ;;
        "import")
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--dry-run --merge $globals" -- "$cur")); return; fi
            case "$argument" in
                0) : ;;
            esac ;;
    esac
}
complete -F _voicealarm voicealarm
