// Puts a truncated class file among the resources, so it lands in target/classes beside the
// compiled classes (class files are not committed).
def dir = new File(basedir, 'src/main/resources/it/safe')
dir.mkdirs()
def bytes = [0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x37, 0x00, 0x10, 0x0A, 0x00] as byte[]
new File(dir, 'Broken.class').bytes = bytes
return true
