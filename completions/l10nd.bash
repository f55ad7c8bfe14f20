# bash completion for l10nd (installed as /usr/share/bash-completion/completions/l10nd).
_l10nd() {
    local cur prev words cword
    _init_completion || return
    case "$prev" in
        --config|--resources|--socket) _filedir; return ;;
        --log-level) COMPREPLY=($(compgen -W "debug info notice warning error" -- "$cur")); return ;;
        --man) COMPREPLY=($(compgen -W "l10nd l10nd.conf" -- "$cur")); return ;;
        --development-language|--settle-ms|--metrics-listen) return ;;
    esac
    COMPREPLY=($(compgen -W "--config --resources --socket --development-language --log-level --settle-ms
        --metrics-listen --check-config --strict --help --version --man" -- "$cur"))
}
complete -F _l10nd l10nd
