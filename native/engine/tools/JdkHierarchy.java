// Prints the direct supertypes of the JDK classes racer's models refer to, one
// class per line: `name flags super iface,iface`. Run with the JDK whose
// hierarchy is bundled (see src/hierarchy/jdk.rs):
//   jmod list $JAVA_HOME/jmods/java.base.jmod | java JdkHierarchy.java > ../src/hierarchy/jdk_hierarchy.txt
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

public class JdkHierarchy {
    static final String[] PACKAGES = {
        "java.lang.", "java.lang.reflect.", "java.util.", "java.util.concurrent.",
        "java.util.concurrent.locks.", "java.util.concurrent.atomic.", "java.util.function.", "javax.crypto.", "java.io.",
        "java.text.", "java.util.regex.", "java.security."
    };

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        TreeSet<String> lines = new TreeSet<>();
        for (String entry; (entry = in.readLine()) != null; ) {
            if (!entry.startsWith("classes/") || !entry.endsWith(".class") || entry.endsWith("module-info.class")) continue;
            String name = entry.substring("classes/".length(), entry.length() - ".class".length()).replace('/', '.');
            String pkg = name.substring(0, name.lastIndexOf('.') + 1);
            boolean wanted = false;
            for (String p : PACKAGES) wanted |= pkg.equals(p);
            if (!wanted) continue;
            Class<?> c;
            try { c = Class.forName(name, false, ClassLoader.getPlatformClassLoader()); } catch (Throwable t) { continue; }
            if (!Modifier.isPublic(c.getModifiers()) && !name.contains("$Synchronized") && !name.contains("$Unmodifiable")) continue;
            List<String> ifaces = new ArrayList<>();
            for (Class<?> i : c.getInterfaces()) ifaces.add(i.getName());
            String sup = c.getSuperclass() == null ? "-" : c.getSuperclass().getName();
            int flags = c.getModifiers() & 0x7611;
            lines.add(name + " " + flags + " " + sup + " " + (ifaces.isEmpty() ? "-" : String.join(",", ifaces)));
        }
        for (String l : lines) System.out.println(l);
    }
}
