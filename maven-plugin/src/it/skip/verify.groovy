// racer.skip: nothing is analysed or written.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
check(log.contains('racer: skipped (racer.skip)'), 'the skip is logged')
check(!new File(basedir, 'target/racer').exists(), 'target/racer is not created')
return true
