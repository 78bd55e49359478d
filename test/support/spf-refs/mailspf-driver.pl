# check_host() by Mail::SPF (Debian libmail-spf-perl) for the SPF differential test.
#
# Usage: perl mailspf-driver.pl PORT. Reads one JSON case a line on stdin
# ({"id", "ip", "sender", "helo"}) and writes one JSON result a line on stdout. Every DNS
# question goes to the loopback fixture server at 127.0.0.1:PORT.
# With --describe instead of a port: one JSON line saying which versions and options run.
use strict;
use warnings;
use JSON::PP;
use Mail::SPF;
use Net::DNS;
use Net::DNS::Resolver;

my $port = shift @ARGV or die "usage: $0 PORT|--describe\n";
my $json = JSON::PP->new->canonical;
if ($port eq '--describe') {
    print $json->encode({
        name    => 'Mail::SPF',
        version => "$Mail::SPF::VERSION",
        backend => 'Net::DNS',
        backend_version => "$Net::DNS::VERSION",
        perl    => sprintf('%vd', $^V),
        options => 'hostname=unknown, Net::DNS udp with tcp fallback, recurse, retry 1, 5 s timeouts',
    }), "\n";
    exit 0;
}
my $resolver = Net::DNS::Resolver->new(
    config_file => '/dev/null',
    nameservers => ['127.0.0.1'],
    port        => $port,
    recurse     => 1,
    retry       => 1,
    retrans     => 5,
    udp_timeout => 5,
    tcp_timeout => 5,
    searchlist  => [],
    defnames    => 0,
    dnsrch      => 0,
);
# hostname: the %{r} macro, "unknown" as in the other implementations under test. An empty
# default explanation tells a fail without exp= text from one with it.
my $server = Mail::SPF::Server->new(
    dns_resolver                  => $resolver,
    hostname                      => 'unknown',
    default_authority_explanation => '',
);

$| = 1;
while (my $line = <STDIN>) {
    my $case = $json->decode($line);
    my %out = (id => $case->{id});
    eval {
        # An empty MAIL FROM is a check of the HELO identity.
        my $helo    = $case->{sender} eq '';
        my $request = Mail::SPF::Request->new(
            scope         => $helo ? 'helo' : 'mfrom',
            identity      => $helo ? $case->{helo} : $case->{sender},
            ip_address    => $case->{ip},
            helo_identity => $case->{helo},
        );
        my $result = $server->process($request);
        $out{result} = $result->code;
        # The void look-ups it counted (RFC 7208 section 4.6.4), as pyspf's driver reports them.
        $out{voids} = $request->state('void_dns_lookups_count') // 0;
        if ($result->code eq 'fail') {
            # Expanding the explanation asks DNS too (%{p}) and can throw on its own, after the
            # result was given: the result stands, and the error is reported beside it.
            my $text = eval { $result->authority_explanation };
            if (defined $text) {
                $out{explanation} = "$text" if "$text" ne '';
            } else {
                $out{explanation_error} = "" . ($@ || 'unknown error');
            }
        }
        $out{reason} = $result->local_explanation
            if $result->code eq 'permerror' || $result->code eq 'temperror';
        1;
    } or do {
        my $err = $@ || 'unknown error';
        $out{result} = 'crash';
        $out{reason} = "$err";
    };
    print $json->encode(\%out), "\n";
}
