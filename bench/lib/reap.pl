#!/usr/bin/perl
# reap.pl OUT_JSON GRACE_SECONDS COMMAND ARGS...
# Runs COMMAND as a child subreaper: processes it orphans are re-parented here and waited for, so
# `times` counts the CPU of the whole tree. Writes {wall, cuser, csys, code, signal, subreaper,
# leftovers} to OUT_JSON. Processes still running GRACE_SECONDS after COMMAND exits are stopped
# (TERM, then KILL) and counted as leftovers. Uses only core Perl.
use strict;
use warnings;
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);

my ($out, $grace, @cmd) = @ARGV;
my %PRCTL = (x86_64 => 157, aarch64 => 167, i686 => 172, armv7l => 172);
my $nr = $PRCTL{(POSIX::uname())[4]};
my $subreaper = (defined $nr && syscall($nr, 36, 1, 0, 0, 0) == 0) ? 1 : 0;    # PR_SET_CHILD_SUBREAPER

sub children {
  my @kids;
  opendir(my $d, "/proc") or return ();
  for my $p (grep { /^\d+$/ } readdir $d) {
    open(my $f, "<", "/proc/$p/stat") or next;
    my $s = <$f>;
    close $f;
    next unless defined $s;
    $s =~ s/^.*\)\s+//s;
    my @f = split / /, $s;
    push @kids, $p if $f[1] == $$;
  }
  closedir $d;
  return @kids;
}

my $t0 = time;
my $pid = fork();
die "fork: $!" unless defined $pid;
if ($pid == 0) {
  exec { $cmd[0] } @cmd or die "exec $cmd[0]: $!";
}
for my $sig (qw(TERM INT HUP)) {
  $SIG{$sig} = sub { kill $sig, $pid };
}
waitpid($pid, 0);
my $status = $?;
my $wall = time - $t0;
my $leftovers = 0;
my $deadline = time + $grace;
while (1) {
  my $r = waitpid(-1, WNOHANG);
  next if $r > 0;
  last if $r < 0;
  if (time > $deadline) {
    my @left = children();
    $leftovers = scalar @left;
    kill 'TERM', @left if @left;
    my $kill_at = time + 1;
    while (waitpid(-1, WNOHANG) >= 0) {
      if (time > $kill_at) { kill 'KILL', children(); $kill_at = time + 1; }
      sleep 0.02;
    }
    last;
  }
  sleep 0.01;
}
my ($u, $s, $cu, $cs) = times;
my $code = ($status & 127) ? "null" : ($status >> 8);
my $signal = ($status & 127) ? ($status & 127) : "null";
open(my $fh, ">", $out) or die "open $out: $!";
printf $fh '{"wall":%.6f,"cuser":%.3f,"csys":%.3f,"code":%s,"signal":%s,"subreaper":%d,"leftovers":%d}', $wall, $cu, $cs, $code, $signal, $subreaper, $leftovers;
close $fh;
exit(($status & 127) ? 128 + ($status & 127) : ($status >> 8));
