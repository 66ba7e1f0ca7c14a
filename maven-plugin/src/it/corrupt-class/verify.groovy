// A truncated class file stops the build with a one-line message naming the file.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def failure = log.readLines().find { it.startsWith('[ERROR] Failed to execute goal dev.racer:racer-maven-plugin') }
check(failure != null, 'the racer goal fails the build')
check(failure =~ /racer could not (read|analyse)/, "the message says what went wrong: $failure")
check(failure.contains('Broken.class'), "the message names the broken class file: $failure")
check(!log.contains('UnsatisfiedLinkError') && !log.contains('panicked'), 'no native failure')
return true
