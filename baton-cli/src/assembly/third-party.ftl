<#-- THIRD-PARTY.txt of the command's distribution, which license-maven-plugin's add-third-party renders: every jar
     of lib/ (named as lib/ names it, less any classifier) with the licence names and URLs its POM declares, and
     picocli, compiled into the command's own jar. The build copies this template into target/ with the values
     between at-signs filled in (the pom's third-party-template). -->
The jars in lib/ and their licences, as their POMs declare them. Baton's own jars (dev.baton) are under
Baton's LICENSE, beside this file.

picocli @picocli.version@ (info.picocli:picocli:@picocli.version@), compiled from its source into baton-cli-@project.version@.jar
    The Apache Software License, version 2.0 - http://www.apache.org/licenses/LICENSE-2.0.txt

<#list dependencyMap as e>
<#assign p = e.getKey()/>
${p.artifactId}-${p.version}.jar (${p.groupId}:${p.artifactId}:${p.version})
<#if p.licenses?size == 0>
<#list e.getValue() as name>
    ${name}
</#list>
<#else>
<#list p.licenses as license>
    ${license.name!"(no name)"} - ${license.url!"(no URL in its POM)"}
</#list>
</#if>
</#list>
