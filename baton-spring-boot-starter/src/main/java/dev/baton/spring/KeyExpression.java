package dev.baton.spring;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * The {@link Locked#key()} of one method, parsed once. Every variable it names must be a parameter of the
 * method, so that a missing {@code -parameters} flag or a typo fails at startup instead of locking
 * {@code order:null} for every call.
 */
final class KeyExpression {
  private static final SpelExpressionParser PARSER = new SpelExpressionParser();
  private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

  private final Method method;
  private final String source;
  private final Expression expression;
  private final String where;

  private KeyExpression(Method method, String source, Expression expression, String where) {
    this.method = method;
    this.source = source;
    this.expression = expression;
    this.where = where;
  }

  /** @throws IllegalArgumentException if the expression is blank, malformed or names what is not a parameter */
  static KeyExpression parse(Method method, String source, String where) {
    if (source.isBlank()) {
      throw new IllegalArgumentException("@Locked on " + where + " has a blank key; give a SpEL expression such as"
          + " \"'order:' + #orderId\", or a fixed name in quotes such as \"'nightly-report'\".");
    }
    Expression expression;
    try {
      expression = PARSER.parseExpression(source);
    } catch (ParseException e) {
      throw new IllegalArgumentException("@Locked(key = \"" + source + "\") on " + where + " is not a SpEL expression: "
          + e.getMessage() + ". Write e.g. \"'order:' + #orderId\".", e);
    }
    checkVariables(method, source, ((SpelExpression) expression).getAST(), where);
    return new KeyExpression(method, source, expression, where);
  }

  /** The key for one call. */
  String evaluate(Object[] args, BeanFactory beanFactory) {
    MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(null, method, args, NAMES);
    if (beanFactory != null) {
      context.setBeanResolver(new BeanFactoryResolver(beanFactory));
    }
    Object key = expression.getValue(context);
    if (key == null || key.toString().isBlank()) {
      throw new IllegalArgumentException("@Locked(key = \"" + source + "\") on " + where + " gave the key '" + key
          + "' for the arguments " + Arrays.toString(args) + "; make the expression give a non-blank key.");
    }
    return key.toString();
  }

  private static void checkVariables(Method method, String source, SpelNode ast, String where) {
    String[] names = NAMES.getParameterNames(method);
    Set<String> known = new HashSet<>(Set.of("root", "this"));
    for (int i = 0; i < method.getParameterCount(); i++) {
      known.add("p" + i);
      known.add("a" + i);
      if (names != null) {
        known.add(names[i]);
      }
    }
    for (String variable : variables(ast)) {
      if (!known.contains(variable)) {
        throw new IllegalArgumentException("@Locked(key = \"" + source + "\") on " + where + " names #" + variable
            + ", which is not a parameter of the method (its parameters: "
            + (names == null ? "names unknown" : String.join(", ", names)) + "). Name a parameter, or use #p0 for the"
            + " first; to use names, compile with -parameters.");
      }
    }
  }

  private static List<String> variables(SpelNode node) {
    List<String> found = new ArrayList<>();
    if (node instanceof VariableReference) {
      found.add(node.toStringAST().substring(1));
    }
    for (int i = 0; i < node.getChildCount(); i++) {
      found.addAll(variables(node.getChild(i)));
    }
    return found;
  }
}
