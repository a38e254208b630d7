/**
 * Who may read Tributary's status and run its actions. The decision is an interface,
 * {@link io.tributary.autoconfigure.security.CdcAccess}, so the endpoint works without Spring
 * Security on the classpath: then every request that reaches it is allowed; with Spring Security
 * actions need a signed-in user with {@code cdc.admin.role}, and reading needs
 * {@code cdc.admin.read-role} when it is set. Only the Spring Security implementation refers to
 * Spring Security's classes, and it is loaded only when they are present.
 */
package io.tributary.autoconfigure.security;
