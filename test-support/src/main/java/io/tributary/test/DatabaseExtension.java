package io.tributary.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit Jupiter extension that gives a test class a {@link TestDatabase}.
 *
 * <p>Use it as {@code @ExtendWith(DatabaseExtension.class)} and declare a parameter of type
 * {@link TestDatabase} on the constructor, a {@code @BeforeAll}/{@code @BeforeEach} method or a
 * test method:
 *
 * <pre>{@code
 * @ExtendWith(DatabaseExtension.class)
 * class ReplicationIT {
 *     @Test
 *     void copiesRows(TestDatabase db) {
 *         String source = db.schema("src"); // t_replicationit_src, created empty
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>The shared {@link TestDatabaseServer} is started before the first test class that uses the
 * extension. Every parameter resolved within one test class is the same {@link TestDatabase}; it
 * lives in the class-level {@link ExtensionContext.Store}. A {@code @Nested} class gets its own.
 */
public final class DatabaseExtension implements BeforeAllCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DatabaseExtension.class);

	@Override
	public void beforeAll(ExtensionContext context) {
		testDatabase(context);
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == TestDatabase.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext)
			throws ParameterResolutionException {
		try {
			return testDatabase(extensionContext);
		} catch (RuntimeException e) {
			throw new ParameterResolutionException("cannot provide a TestDatabase: " + e.getMessage(), e);
		}
	}

	private static TestDatabase testDatabase(ExtensionContext context) {
		ExtensionContext classContext = classContext(context);
		Class<?> testClass = classContext.getRequiredTestClass();
		return classContext.getStore(NAMESPACE)
				.computeIfAbsent(testClass, c -> new TestDatabase(c, TestDatabaseServer.shared()), TestDatabase.class);
	}

	/** The nearest context that belongs to the test class itself rather than to one method. */
	private static ExtensionContext classContext(ExtensionContext context) {
		ExtensionContext current = context;
		while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
			current = current.getParent().get();
		}
		return current;
	}
}
