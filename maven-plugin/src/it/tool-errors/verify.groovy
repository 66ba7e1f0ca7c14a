// Tool errors stop the build with a one-line message naming the file, never a crash.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 4, "four invocations logged, found ${builds.size()}")
def failure = { String build -> build.readLines().find { it.startsWith('[ERROR] Failed to execute goal dev.racer:racer-maven-plugin') } }

def corrupt = failure(builds[0])
check(corrupt != null, 'the racer goal fails the build on a truncated class file')
check(corrupt =~ /racer could not read 1 class file of tool-errors: \S+\/target\/classes\/it\/safe\/Broken\.class: /,
        "the message names the broken class file: $corrupt")

check(failure(builds[1]) == null, 'racer.failOnError=false: the build passes')
check(builds[1] =~ /\[WARNING\] .*Broken\.class/, 'racer.failOnError=false: the file is still warned about')
check(builds[1].contains('racer: no races found in tool-errors ('), 'racer.failOnError=false: the rest is analysed')

def noLibrary = failure(builds[2])
check(noLibrary != null, 'the racer goal fails the build without its native library')
check(noLibrary =~ /racer could not analyse tool-errors: .*\/nonexistent\/libracer_jni\.so/,
        "the message names the library: $noLibrary")

def unknownExtension = failure(builds[3])
check(unknownExtension != null, 'the racer goal fails the build on an unknown extension name')
check(unknownExtension.contains('no analysis extension is named `thread-handof`'),
        "the message names the extension: $unknownExtension")

check(!log.contains('hs_err_pid') && !log.contains('panicked'), 'no native crash')
return true
