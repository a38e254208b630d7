package io.tributary.source;

/**
 * How connections to the source use TLS, with the meanings MySQL clients give these names.
 */
public enum SslMode {

	/** Plain connections only. */
	DISABLED,

	/** TLS when the server offers it, otherwise plain. */
	PREFERRED,

	/** TLS or no connection; the server's certificate is not verified. */
	REQUIRED,

	/** TLS with the server's certificate verified against the configured CA. */
	VERIFY_CA,

	/** As {@link #VERIFY_CA}, and the certificate must name the host connected to. */
	VERIFY_IDENTITY

}
