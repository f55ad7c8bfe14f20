# bash completion for l10nctl (installed as /usr/share/bash-completion/completions/l10nctl).
# The commands and options are l10nctl's help; Tests/EndToEndTests/PackagingTests.swift
# checks that every one of them is offered here.
_l10nctl() {
    local cur prev words cword
    _init_completion || return
    local commands="get dump coverage lint export import status reload watch missing reset metrics languages socket-path help"
    local globals="--socket --resources --development-language --format --json --help --version"
    case "$prev" in
        --socket|--resources) _filedir; return ;;
        --format) COMPREPLY=($(compgen -W "text json sarif strings xliff po man" -- "$cur")); return ;;
        --lang|--table|--count|--timeout|--development-language|--severity|--placeholders) return ;;
        --config) _filedir; return ;;
        --output) _filedir; return ;;
    esac
    local command="" word
    for word in "${words[@]:1:cword-1}"; do
        case " $commands " in *" $word "*) command=$word; break ;; esac
    done
    if [[ -z $command && $cur != -* ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    local options=""
    case "$command" in
        get) options="--lang --table --count --strict" ;;
        reload) options="--timeout" ;;
        missing) options="--lang --table" ;;
        lint) [[ $cur != -* ]] && { _filedir; return; }; options="--severity --placeholders --config" ;;
        export) [[ $cur != -* ]] && { _filedir -d; return; }; options="--lang --output" ;;
        import) [[ $cur != -* ]] && { _filedir; return; }; options="--lang --accept-fuzzy --force" ;;
        help) COMPREPLY=($(compgen -W "$commands --format" -- "$cur")); return ;;
        dump|coverage) [[ $cur != -* ]] && { _filedir; return; } ;;
    esac
    COMPREPLY=($(compgen -W "$options $globals" -- "$cur"))
}
complete -F _l10nctl l10nctl
