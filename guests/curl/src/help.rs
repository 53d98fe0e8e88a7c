//! `curl --help` / `-h`: the options this curl has, in curl's layout.

pub const HELP: &str = "Usage: curl [options...] <url>
 -d, --data <data>          HTTP POST data (@file reads a file, CR/LF dropped)
     --data-binary <data>   HTTP POST binary data (@file as is)
     --data-raw <data>      HTTP POST data, '@' allowed
     --data-urlencode <data> HTTP POST data url encoded
 -D, --dump-header <filename> Write the received headers to <filename>
 -f, --fail                 Fail fast with no output on HTTP errors
     --fail-with-body       Fail on HTTP errors but save the body
 -G, --get                  Put the post data in the URL and use GET
 -H, --header <header/@file> Pass custom header(s) to server
 -h, --help                 Get help for commands
 -i, --include              Include protocol response headers in the output
 -I, --head                 Show document info only
     --json <data>          HTTP POST JSON
 -L, --location             Follow redirects
     --max-redirs <num>     Maximum number of redirects allowed
 -m, --max-time <fractional seconds> Maximum time allowed for transfer
     --connect-timeout <fractional seconds> Maximum time allowed for connection
 -o, --output <file>        Write to file instead of stdout
 -O, --remote-name          Write output to a file named as the remote file
 -X, --request <method>     Specify request method to use
 -s, --silent               Silent mode
 -S, --show-error           Show error even when -s is used
 -u, --user <user:password> Server user and password
 -A, --user-agent <name>    Send User-Agent <name> to server
 -v, --verbose              Make the operation more talkative
 -V, --version              Show version number and quit
 -w, --write-out <format>   Use output FORMAT after completion

Requests go through the host: only to hosts the workspace allows
(computer net allow HOST[:PORT]), each one audited.
";
