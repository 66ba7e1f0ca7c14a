// Writes a file:// remote repository with two plain jars (no racer-summaries attached), and
// forgets what an earlier run cached about them in the shared local repository.
import java.security.MessageDigest
import java.util.zip.ZipEntry
import java.util.zip.ZipOutputStream

def remote = new File(basedir, 'remote')
remote.deleteDir()
new File(localRepositoryPath, 'dev/racer/it/scope').deleteDir()

def withSha1 = { File file, byte[] bytes ->
    file.parentFile.mkdirs()
    file.bytes = bytes
    new File(file.path + '.sha1').text = MessageDigest.getInstance('SHA-1').digest(bytes).encodeHex().toString()
}
['compiledep', 'testdep'].each { name ->
    def dir = new File(remote, "dev/racer/it/scope/$name/1.0")
    withSha1(new File(dir, "$name-1.0.pom"), """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.racer.it.scope</groupId>
  <artifactId>$name</artifactId>
  <version>1.0</version>
</project>
""".getBytes('UTF-8'))
    def jar = new ByteArrayOutputStream()
    new ZipOutputStream(jar).withCloseable { zip ->
        zip.putNextEntry(new ZipEntry('META-INF/MANIFEST.MF'))
        zip.write('Manifest-Version: 1.0\r\n\r\n'.getBytes('UTF-8'))
        zip.closeEntry()
    }
    withSha1(new File(dir, "$name-1.0.jar"), jar.toByteArray())
}
return true
