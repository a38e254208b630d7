/**
 * Thymeleaf admin pages for Tributary. They read only the pipeline's immutable status and change
 * nothing.
 */
package io.tributary.admin;
